-- The demo's schema, in SQL that both H2 and MariaDB accept. Run on the primary (and, embedded, on
-- every replica: H2 has no replication). Dropped and created anew on every run.
drop table if exists purchase_order;
drop table if exists profile;
drop table if exists app_user;
drop table if exists demo_heartbeat;
create table app_user (id bigint primary key, name varchar(100) not null);
create table profile (user_id bigint primary key, display_name varchar(100) not null, revision int not null);
create table purchase_order (id bigint primary key, user_id bigint not null, item varchar(100) not null);
create index purchase_order_user on purchase_order (user_id);
create table demo_heartbeat (id int primary key, beat bigint not null);
