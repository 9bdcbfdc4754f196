package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The forms PostgreSQL adds: each must go to the primary, and plain PostgreSQL reads must stay reads. */
class PostgresSqlClassifierTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            insert into account (owner) values ('a') returning id                                 | WRITE
            update account set balance = 1 where id = 2 returning balance                        | WRITE
            delete from account where id = 3 returning *                                         | WRITE
            insert into t values (1) on conflict (id) do update set v = excluded.v                | WRITE
            select * from account where id = 1 for no key update                                | LOCKING_READ
            select * from account where id = 1 for key share                                    | LOCKING_READ
            select * from account for update of account skip locked                              | LOCKING_READ
            select * from account for share nowait                                               | LOCKING_READ
            select nextval('account_seq')                                                        | PRIMARY_FUNCTION
            select nextval('account_seq'::regclass)                                              | PRIMARY_FUNCTION
            select setval('account_seq', 42)                                                     | PRIMARY_FUNCTION
            select currval('account_seq')                                                        | PRIMARY_FUNCTION
            select lastval()                                                                     | PRIMARY_FUNCTION
            select pg_advisory_lock(42)                                                          | PRIMARY_FUNCTION
            select pg_advisory_xact_lock(42)                                                     | PRIMARY_FUNCTION
            select pg_try_advisory_lock(1, 2)                                                    | PRIMARY_FUNCTION
            select pg_try_advisory_xact_lock_shared(7)                                           | PRIMARY_FUNCTION
            select PG_ADVISORY_LOCK_SHARED(7)                                                    | PRIMARY_FUNCTION
            select pg_advisory_unlock(42)                                                        | PRIMARY_FUNCTION
            select "pg_advisory_lock"(42)                                                        | PRIMARY_FUNCTION
            select pg_catalog."pg_try_advisory_lock"(1)                                          | PRIMARY_FUNCTION
            select "nextval"('account_seq')                                                      | PRIMARY_FUNCTION
            select "pg_advisory_lock" from locks                                                 | READ
            select pg_advisory_unlock_all()                                                      | PRIMARY_FUNCTION
            select pg_notify('orders', 'new')                                                    | PRIMARY_FUNCTION
            select set_config('app.user', 'alice', false)                                        | PRIMARY_FUNCTION
            select txid_current()                                                                | PRIMARY_FUNCTION
            select pg_current_xact_id()                                                          | PRIMARY_FUNCTION
            select * into archive from account                                                   | WRITE
            select * into unlogged table archive2 from account                                   | WRITE
            select * into temp copy_of from account                                              | PRIMARY_FUNCTION
            select id, owner into temporary copy_of from account where balance > 0               | PRIMARY_FUNCTION
            listen orders                                                                        | SESSION
            notify orders, 'payload'                                                             | SESSION
            unlisten *                                                                           | SESSION
            lock table account in access exclusive mode                                          | SESSION
            LOCK account                                                                         | SESSION
            discard all                                                                          | SESSION
            reset search_path                                                                    | SESSION
            copy account from stdin                                                              | WRITE
            copy account to stdout                                                               | WRITE
            copy (select * from account) to stdout                                               | WRITE
            call transfer(1, 2, 10)                                                              | CALL
            do $$ begin perform 1; end $$                                                        | CALL
            with moved as (delete from inbox where id = 1 returning *) select * from moved       | WRITE
            with x as (update account set balance = 0 returning id) select count(*) from x       | WRITE
            with x as ( insert into log values (1) returning id ) select * from x                | WRITE
            with x as materialized (update account set v = 1 returning id) select * from x        | WRITE
            with a as (select 1), b as (/* note */ delete from t returning id) select * from b   | WRITE
            with x as (merge into t using s on t.id = s.id when matched then delete) select 1    | WRITE
            vacuum analyze account                                                               | DDL
            refresh materialized view totals                                                     | DDL
            reindex table account                                                                | DDL
            cluster account using account_pkey                                                   | DDL
            """)
    void sendsPostgresFormsToThePrimary(String sql, SqlKind expected) {
        assertEquals(expected, SqlClassifier.classify(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "select a.id, a.owner from account a where a.id = $1",
            "select id::text, balance from account where owner ilike 'a%' order by id limit 10 offset 5",
            "with x as (select id from account) select * from x",
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select * from r",
            "select pg_is_in_recovery(), inet_server_port()",
            "select pg_last_wal_replay_lsn()",
            "select pg_advisory from locks",
            "select count(*) filter (where updated) from account",
            "select * from account where note = 'for update'",
            "select jsonb_build_object('a', 1) ->> 'a'",
            "select now() - interval '1 day'",
            "table account",
    })
    void keepsPlainPostgresReadsAsReads(String sql) {
        assertEquals(SqlKind.READ, SqlClassifier.classify(sql), sql);
    }
}
