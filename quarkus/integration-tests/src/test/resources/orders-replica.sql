create table if not exists customer (id bigint not null primary key, name varchar(255));
merge into customer (id, name) key (id) values (1, 'orders-replica-alice');
