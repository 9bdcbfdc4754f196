insert into customer (id, name) values (1, 'orders-primary-alice');
