insert into person (id, name) values (1, 'primary-alice');
insert into person (id, name) values (2, 'primary-bob');
