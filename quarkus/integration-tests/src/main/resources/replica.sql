create table if not exists person (id bigint not null primary key, name varchar(255));
merge into person (id, name) key (id) values (1, 'replica-alice');
merge into person (id, name) key (id) values (2, 'replica-bob');
