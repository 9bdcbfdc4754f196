package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class SqlClassifierTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=?",
            "SELECT 1",
            "  \n/* comment */ -- x\n SELECT 1",
            "/* load io.x.Person */ select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=?",
            "/* <criteria> */ select p1_0.id from Person p1_0 order by p1_0.name fetch first ? rows only",
            "(select 1) union (select 2)",
            "((select a from t))",
            "values (1, 2)",
            "table Person",
            "with cte as (select id from Person) select * from cte",
            "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n",
            "with a as (select 1), b as (select 2) select * from a, b",
            "with a as (select 1) (select * from a) union (select 2)",
            "select MASTER_POS_WAIT('bin.000001', 4, 1)",
            "select MASTER_GTID_WAIT('0-1-42', 1)",
            "select WAIT_FOR_EXECUTED_GTID_SET('3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5', 1)",
            "select p.for_update_flag from Person p",
            "select p.name from Person p where p.note = 'for update'",
            "select p.name from Person p where p.note = 'it''s for update'",
            "select \"for update\" from Person",
            "select `for` from Person",
            "select p.name from Person p /* for update */",
            "select p.name from Person p -- for update",
            "select p.name as next_value from Person p",
            "select row_counter, found from t",
            "select p.into_flag from t p",
            "select * from t for system_time as of timestamp '2024-01-01 00:00:00'",
            "select 1 from t;",
            "select 1 from t; -- trailing comment",
            "select a--1 from t",
            "select /*+ MAX_EXECUTION_TIME(1000) */ * from t",
            "select * from t where name = 'x' /* trailing */",
    })
    void classifiesReplicaSafeReadsAsRead(String sql) {
        assertEquals(SqlKind.READ, SqlClassifier.classify(sql));
    }

    /** Replica-safe under MySQL's rules, which is how MariaDB and MySQL units read them (PostgreSQL's differ). */
    @ParameterizedTest
    @ValueSource(strings = {
            "# mysql comment\nselect 1",
            "select p.name from Person p # lock in share mode",
    })
    void classifiesMySqlCommentsAsMySqlDoes(String sql) {
        assertEquals(SqlKind.READ, SqlClassifier.classify(sql, Lexing.MYSQL));
    }

    /** A backslash in a string reads two ways (NO_BACKSLASH_ESCAPES): under one of them this locks. */
    @Test
    void aBackslashBeforeAQuoteReadsTwoWays() {
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("select p.name from Person p where p.note = 'a\\' for update'",
                Lexing.MYSQL));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // H2
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? for update",
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? for update nowait",
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? for update skip locked",
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? for update wait 5",
            "select p1_0.id,p1_0.name from Person p1_0 join Address a1_0 on a1_0.id=p1_0.address_id for update of p1_0",
            // MySQL
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? for share",
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? for share nowait",
            "select p1_0.id from Person p1_0 where p1_0.id=? FOR UPDATE SKIP LOCKED",
            // MariaDB
            "select p1_0.id,p1_0.name from Person p1_0 where p1_0.id=? lock in share mode",
            "select p1_0.id from Person p1_0 where p1_0.id=?\n  LOCK\n\tIN  SHARE\r\nMODE",
            // PostgreSQL-style strengths
            "select * from t for no key update",
            "select * from t for key share",
            "select * from t for /* why not */ update",
            "/* lock io.x.Person */ select p1_0.version from Person p1_0 where p1_0.id=? for update",
            "with cte as (select id from Person) select * from cte for update",
            "with cte as (select id from Person for update) select * from cte",
            "(select id from t for update)",
            "select nextval(person_seq) from t for update",
    })
    void classifiesLockClausesAsLockingRead(String sql) {
        assertEquals(SqlKind.LOCKING_READ, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "select next value for person_seq",
            "SELECT NEXT\nVALUE  FOR person_seq",
            "select nextval(person_seq)",
            "select nextval ('person_seq')",
            "select person_seq.nextval from dual",
            "select person_seq.currval from dual",
            "select previous value for person_seq",
            "select current value for person_seq",
            "select setval(person_seq, 100)",
            "select lastval(person_seq)",
            "select LAST_INSERT_ID()",
            "select @@identity",
            "select @@last_insert_id",
            "select FOUND_ROWS()",
            "select row_count()",
            "select GET_LOCK('job', 10)",
            "select release_lock('job')",
            "select RELEASE_ALL_LOCKS()",
            "select is_free_lock('job')",
            "select is_used_lock('job')",
            "select id from t into outfile '/tmp/t.csv'",
            "select id into @id from t where name = ?",
            "select id from t into dumpfile '/tmp/t.bin'",
            "select SQL_CALC_FOUND_ROWS * from t limit 10",
            "with s as (select nextval(person_seq) as id) select id from s",
    })
    void classifiesPrimaryDependentReadsAsPrimaryFunction(String sql) {
        assertEquals(SqlKind.PRIMARY_FUNCTION, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "insert into Person (name,id) values (?,?)",
            "update Person set name=?,version=? where id=? and version=?",
            "delete from Person where id=?",
            "/* delete io.x.Person */ delete from Person where id=?",
            "merge into Person p using (values (?,?)) s(id,name) on p.id=s.id when matched then update set p.name=s.name",
            "replace into Person (id,name) values (?,?)",
            "upsert into Person values (1, 'a')",
            "truncate table Person",
            "load data local infile 'people.csv' into table Person",
            "LOAD XML INFILE 'people.xml' INTO TABLE Person",
            "with cte as (select 1) delete from t where id in (select * from cte)",
            "with cte as (select id from t) update t set x = 1 where id in (select id from cte)",
            "with cte (id) as (select 1) insert into t select id from cte",
            "insert into t select * from s for update",
    })
    void classifiesWritesAsWrite(String sql) {
        assertEquals(SqlKind.WRITE, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "create table Person (id bigint not null, name varchar(255), primary key (id))",
            "alter table Person add constraint FK_x foreign key (address_id) references Address",
            "drop table if exists Person cascade",
            "rename table a to b",
            "comment on table Person is 'people'",
            "grant select on db.* to 'app'@'%'",
            "revoke select on db.* from 'app'@'%'",
            "analyze table Person",
            "ANALYZE NO_WRITE_TO_BINLOG TABLE Person",
            "optimize table Person",
            "repair table Person",
            "create sequence person_seq start with 1 increment by 50",
    })
    void classifiesSchemaChangesAsDdl(String sql) {
        assertEquals(SqlKind.DDL, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "call next value for seq",
            "call refresh_stats(?)",
            "{call refresh_stats(?)}",
            "{ call refresh_stats(?, ?) }",
            "{? = call compute(?)}",
            "{ ?= CALL compute(?)}",
            "exec refresh_stats",
            "execute stmt using @a",
            "do sleep(1)",
    })
    void classifiesProcedureCallsAsCall(String sql) {
        assertEquals(SqlKind.CALL, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SET @@SESSION.innodb_lock_wait_timeout = 3",
            "set session transaction read only",
            "use app",
            "lock tables Person write",
            "unlock tables",
            "start transaction read only",
            "begin",
            "commit",
            "rollback",
            "savepoint s1",
            "release savepoint s1",
            "xa start 'x'",
            "flush tables",
            "kill query 42",
            "handler Person open",
            "prepare stmt from 'select 1'",
            "deallocate prepare stmt",
    })
    void classifiesSessionStatementsAsSession(String sql) {
        assertEquals(SqlKind.SESSION, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SHOW VARIABLES",
            "show slave status",
            "explain select * from Person",
            "describe Person",
            "desc Person",
            "help 'select'",
            "check table Person",
            "checksum table Person",
            "analyze select * from t",
            "start slave",
            "load index into cache t",
            "frobnicate everything",
            "/*!40101 SET NAMES utf8 */",
            "/*!50000 select 1 */",
            "select 1 /*! for update */",
            "select 1 /*M!100301 for update */",
            "with a as (select 1) select * from a /*!80000 for update */",
            "select 1; /*! delete from t */",
            "select 'unterminated for update",
            "select 'C:\\' from t for update",
            "with a as (select 1)",
            "{fn now()}",
            "--no space is not a comment\nselect 1",
            ";",
            "/* only a comment */",
            "(((",
    })
    void classifiesEverythingElseAsOther(String sql) {
        assertEquals(SqlKind.OTHER, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "\n\t"})
    void classifiesMissingSqlAsOther(String sql) {
        assertEquals(SqlKind.OTHER, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @EnumSource(SqlKind.class)
    void onlyPlainReadsMayLeaveThePrimary(SqlKind kind) {
        assertEquals(kind != SqlKind.READ, kind.primaryOnly());
    }

    @Test
    void severalStatementsInOneStringAreAWriteWhenAnyOfThemWrites() {
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("BEGIN; UPDATE t SET a = 1; COMMIT"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("START TRANSACTION; insert into t values (1); COMMIT"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("SET SCHEMA PUBLIC; insert into t values (1)"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("select 1; delete from t"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("select a from t for update; select 1"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("set x = 1; call p()"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("begin; create table x (a int)"));
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("select 1; select 2"));
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("set search_path = x; select 1"));
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("BEGIN; select 1; COMMIT"));
    }

    @Test
    void aMariaDbBlockIsACallWhateverItRuns() {
        assertEquals(SqlKind.CALL, SqlClassifier.classify("BEGIN NOT ATOMIC INSERT INTO t VALUES (1); END"));
        assertEquals(SqlKind.CALL, SqlClassifier.classify("begin not atomic select 1; end"));
        assertEquals(SqlKind.SESSION, SqlClassifier.classify("begin"));
    }

    @Test
    void aSemicolonInALiteralACommentOrAtTheEndLeavesOneStatement() {
        assertEquals(SqlKind.READ, SqlClassifier.classify("select 'a;b' from t"));
        assertEquals(SqlKind.READ, SqlClassifier.classify("select a from t; -- done"));
        assertEquals(SqlKind.READ, SqlClassifier.classify("select a /* ; */ from t;"));
        assertEquals(SqlKind.SESSION, SqlClassifier.classify("begin;"));
        assertEquals(SqlKind.WRITE, SqlClassifier.classify("insert into t values (';')"));
    }

    @Test
    void readsNotOnlyTheFirstLetter() {
        assertEquals(SqlKind.SESSION, SqlClassifier.classify("set x = 1"));
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("show tables"));
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("selectx 1"));
        assertEquals(SqlKind.OTHER, SqlClassifier.classify("sel 1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/* rwsplit:primary */ select 1",
            "/*rwsplit:primary*/select 1",
            "/*  RWSPLIT : Primary  */ select 1",
            "/* load io.x.Person */ /* rwsplit:primary */ select 1",
            "/* rwsplit:primary */ /* load io.x.Person */ select 1",
            "  \n-- rwsplit:primary\nselect 1",
            "# rwsplit:primary\nselect 1",
            "(/* rwsplit:primary */ select 1) union (select 2)",
            "/* rwsplit:primary */ /* rwsplit:PRIMARY */ select 1",
            "/* rwsplit:primary */",
    })
    void readsPrimaryHintInLeadingComments(String sql) {
        assertEquals(SqlHint.PRIMARY, SqlClassifier.hint(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/* rwsplit:replica */ select 1",
            "/*RWSPLIT:REPLICA*/ select 1",
            "/* <criteria> */\n/*\trwsplit:replica\n*/\nselect 1",
            "-- rwsplit:replica\r\nselect 1",
            "#rwsplit:replica\nselect 1",
    })
    void readsReplicaHintInLeadingComments(String sql) {
        assertEquals(SqlHint.REPLICA, SqlClassifier.hint(sql));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
            "select 1",
            "/* load io.x.Person */ select 1",
            "select /* rwsplit:primary */ 1",
            "select 1 -- rwsplit:primary",
            "/* about rwsplit:primary */ select 1",
            "/* rwsplitter */ select 1",
            "/** rwsplit:primary */ select 1",
            "/*!rwsplit:primary*/ select 1",
            "--rwsplit:primary\nselect 1",
    })
    void findsNoHintOutsideLeadingRwsplitComments(String sql) {
        assertEquals(SqlHint.NONE, SqlClassifier.hint(sql));
    }

    @Test
    void rejectsUnknownHintNamingTheValueAndTheAllowedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SqlClassifier.hint("/* load io.x.Person */ /* rwsplit:primray */ select 1"));
        assertEquals("unknown rwsplit hint 'primray' in SQL comment (allowed: rwsplit:primary, rwsplit:replica)",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/* rwsplit: */ select 1",
            "/* rwsplit:primary please */ select 1",
            "/* rwsplit primary */ select 1",
            "-- RWSPLIT:master\nselect 1",
    })
    void rejectsMalformedHints(String sql) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SqlClassifier.hint(sql));
        assertTrue(e.getMessage().startsWith("unknown rwsplit hint '"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(allowed: rwsplit:primary, rwsplit:replica)"), e.getMessage());
    }

    @Test
    void rejectsConflictingHints() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SqlClassifier.hint("/* rwsplit:primary */ /* rwsplit:replica */ select 1"));
        assertEquals("conflicting rwsplit hints in SQL comments: rwsplit:primary and rwsplit:replica", e.getMessage());
    }

    @Test
    void classifiesWithoutAllocating() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        String[] statements = {
                "/* load io.example.domain.Person */ select p1_0.id,p1_0.address_id,p1_0.birth_date,p1_0.email,"
                        + "p1_0.first_name,p1_0.last_name,p1_0.nickname,p1_0.phone,p1_0.status,p1_0.version "
                        + "from Person p1_0 left join Address a1_0 on a1_0.id=p1_0.address_id "
                        + "where p1_0.id=? and p1_0.status<>'for update' and p1_0.version>=? for update",
                "/* rwsplit:replica */ with recent as (select o1_0.id from Orders o1_0 where o1_0.created>?) "
                        + "select r.id, nextval(order_seq) from recent r where r.id in (select id from Archive)",
                "insert into Person (address_id,birth_date,email,first_name,last_name,version,id) values (?,?,?,?,?,?,?)",
        };
        EnumSet<SqlKind> seen = EnumSet.noneOf(SqlKind.class);
        for (int i = 0; i < 50_000; i++) {       // warm up: class loading, JIT
            seen.add(SqlClassifier.classify(statements[i % statements.length]));
            SqlClassifier.hint(statements[i % statements.length]);
        }
        int calls = 10_000;
        int reads = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            String sql = statements[i % statements.length];
            if (SqlClassifier.classify(sql) == SqlKind.READ || SqlClassifier.hint(sql) == SqlHint.PRIMARY) {
                reads++;
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(0, reads);
        assertEquals(EnumSet.of(SqlKind.LOCKING_READ, SqlKind.PRIMARY_FUNCTION, SqlKind.WRITE), seen);
        assertTrue(allocated < calls, () -> allocated + " bytes allocated by " + calls + " classify+hint calls");
        assertFalse(statements[0].length() < 300);
    }
}
