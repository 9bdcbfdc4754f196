package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rwsplit.RouteReason;

class SessionStateTest {

    private final Servers servers;

    SessionStateTest() throws SQLException {
        servers = new Servers(1, "round_robin");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private static SessionState.Effect effect(String sql) {
        return SessionState.effect(sql, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            BEGIN                                  | BEGINS
            begin work                             | BEGINS
            BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE | BEGINS
            start transaction                      | BEGINS
            START TRANSACTION READ ONLY            | BEGINS
            xa start 'x1'                          | BEGINS
            COMMIT                                 | COMMITS
            commit work                            | COMMITS
            END                                    | COMMITS
            xa commit 'x1' one phase               | COMMITS
            COMMIT AND CHAIN                       | COMMITS_AND_BEGINS
            commit work and chain                  | COMMITS_AND_BEGINS
            commit and no chain                    | COMMITS
            ROLLBACK AND CHAIN                     | ROLLS_BACK_AND_BEGINS
            ROLLBACK                               | ROLLS_BACK
            rollback work                          | ROLLS_BACK
            abort                                  | ROLLS_BACK
            xa rollback 'x1'                       | ROLLS_BACK
            rollback to savepoint s1               | ROLLS_BACK_TO_SAVEPOINT
            ROLLBACK WORK TO s1                    | ROLLS_BACK_TO_SAVEPOINT
            savepoint s1                           | SAVEPOINT
            RELEASE SAVEPOINT s1                   | SAVEPOINT
            release s1                             | SAVEPOINT
            xa end 'x1'                            | NONE
            BEGIN NOT ATOMIC SELECT 1; END         | NONE
            """)
    void transactionBoundariesSentAsSqlAreNamed(String sql, SessionState.Effect expected) {
        assertEquals(expected, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SET @x := 1",
            "set @x = 1, @y = 2",
            "/* app */ set @`quoted` = 1",
            "set session sql_mode = @saved",
            "CREATE TEMPORARY TABLE t (v int)",
            "create or replace temporary table t (v int)",
            "create temp table t (v int)",
            "CREATE LOCAL TEMPORARY TABLE t (v int)",
            "create global temp table t (v int)",
            "create temporary view v as select 1",
            "select get_lock('name', 10)",
            "SELECT GET_LOCK ('name', 10)",
            "select `get_lock`('name', 10)",
            "select id into @id from person where id = 1",
            "select * into temp t from person",
            "SELECT id INTO TEMPORARY TABLE t FROM person",
            "select id into local temp t from person",
            "PREPARE s FROM 'select 1'",
            "prepare s (int) as select $1",
            "declare c cursor with hold for select 1",
            "LISTEN channel",
            "set local statement_timeout = 1000",
            "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
            "set session authorization 'someone'",
            "set autocommit = 0 + 1",
            "set autocommit = default",
            "SET @@session.autocommit = @previous",
            "set autocommit = ?",
            "set time_zone = ?",
            "select set_config('app.user', 'x', true)",
            "select set_config('app.user', 'x', false), name from person",
            "select name from person where set_config('app.user', name, false) is not null",
            "select set_config(?, ?, false)"})
    void pinsStatementsWhoseStateCannotBeReplayed(String sql) {
        assertEquals(SessionState.Effect.PINS, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"set autocommit = 0", "SET @@session.autocommit = 0", "set autocommit=OFF",
            "SET SESSION autocommit := false", "set /* x */ autocommit = 0;", "SET @@autocommit = 0, sql_mode = ''",
            "set autocommit = 'OFF'", "SET LOCAL autocommit = 0", "SET NAMES utf8mb4, autocommit = 0",
            "set sql_mode = concat(@@sql_mode, ',ANSI'), @@session.autocommit = 0"})
    void switchingAutocommitOffBySqlPinsAndIsFollowedAsManualCommits(String sql) {
        assertEquals(SessionState.Effect.MANUAL_COMMITS, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"BEGIN; UPDATE t SET a = 1; COMMIT", "start transaction; insert into t values (1)",
            "COMMIT; insert into t values (1)", "select 1; set autocommit = 0",
            "SET autocommit = 0; insert into t values (1); commit", "/* a */ begin /* b */ ; -- c\n update t set a = 1",
            "create table x (a int); begin; insert into x values (1)", "insert into t values (1); rollback"})
    void severalStatementsWithATransactionBoundaryAreNotFollowedOneByOne(String sql) {
        assertEquals(SessionState.Effect.SEVERAL, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SET SCHEMA PUBLIC; insert into item (label) values ('x')", "set search_path = x; select 1",
            "insert into t values (1); insert into t values (2)", "SET @x = 1; SET time_zone = '+00:00'"})
    void severalStatementsWithoutABoundaryPin(String sql) {
        assertEquals(SessionState.Effect.PINS, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SET NAMES utf8mb4; SET time_zone = '+00:00'", "set search_path to a; set role b;"})
    void severalSessionSettingsAreReplayedTogether(String sql) {
        assertEquals(SessionState.Effect.REPLAYED, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END",
            "create or replace function f() returns int begin atomic select 1; end",
            "CREATE DEFINER=`root`@`%` TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN SET NEW.a = 1; END",
            "do $$ begin perform 1; end $$", "BEGIN NOT ATOMIC SELECT 1; END"})
    void aCompoundStatementIsOne(String sql) {
        assertTrue(effect(sql) != SessionState.Effect.SEVERAL && effect(sql) != SessionState.Effect.PINS, sql);
    }

    @Test
    void aDollarQuotedSemicolonIsOneStatementOnPostgresql() {
        String sql = "insert into doc values ($$a; b$$)";
        assertEquals(SessionState.Effect.NONE, SessionState.effect(sql, SqlClassifier.classify(sql, Lexing.POSTGRESQL),
                Lexing.POSTGRESQL));
        String hidden = "select 1 -- comment\n; begin";
        assertEquals(SessionState.Effect.SEVERAL, SessionState.effect(hidden,
                SqlClassifier.classify(hidden, Lexing.POSTGRESQL), Lexing.POSTGRESQL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SAVEPOINT s1 /*! , x */", "ROLLBACK TO s1 /*M!100000 ; */"})
    void aSavepointWithAnExecutableCommentRunsOnThePrimary(String sql) {
        assertEquals(SessionState.Effect.NONE, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"insert into t values (';')", "BEGIN;", "commit ; -- done", "set x = 'a;b'",
            "set /* ; */ autocommit = 0 # ;"})
    void aSemicolonThatEndsTheTextOrIsQuotedIsOneStatement(String sql) {
        assertTrue(effect(sql) != SessionState.Effect.SEVERAL, sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"set autocommit = 1", "SET @@autocommit=ON", "set session autocommit = true",
            "set sql_mode = '', autocommit = 1"})
    void switchingAutocommitOnBySqlPinsAndCommits(String sql) {
        assertEquals(SessionState.Effect.AUTO_COMMITS, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"LOCK TABLES holes WRITE", "lock tables a read, b write",
            "LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE"})
    void tableLocksKeepTheConnectionOnThePrimaryUntilReleased(String sql) {
        assertEquals(SessionState.Effect.LOCKS_TABLES, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"select pg_advisory_lock(42)", "SELECT pg_catalog.pg_advisory_lock(42)",
            "select \"pg_advisory_lock\"(42)", "select pg_try_advisory_lock(1, 2)", "select pg_advisory_xact_lock(42)",
            "select PG_ADVISORY_LOCK_SHARED(7)"})
    void advisoryLocksKeepTheConnectionOnThePrimaryUntilTheServerHoldsNone(String sql) {
        assertEquals(SessionState.Effect.LOCKS_ADVISORY, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"select pg_advisory_unlock(42)", "SELECT pg_advisory_unlock_all()",
            "select \"pg_advisory_unlock_shared\"(7)"})
    void advisoryUnlocksAskTheServer(String sql) {
        assertEquals(SessionState.Effect.UNLOCKS_ADVISORY, effect(sql), sql);
    }

    @Test
    void unlockTablesReleasesTableLocks() {
        assertEquals(SessionState.Effect.UNLOCKS_TABLES, effect("UNLOCK TABLES"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SET time_zone = '+05:00'",
            "set session time_zone = 'Europe/Paris'",
            "SET @@session.time_zone = '+00:00'",
            "set @@sql_mode = 'ANSI_QUOTES'",
            "set names latin1",
            "SET NAMES utf8mb4 COLLATE utf8mb4_bin",
            "set character set utf8mb4",
            "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
            "set @@session.innodb_lock_wait_timeout = 5",
            "set div_precision_increment = 8, sql_mode = ''",
            "use rwsplit",
            "SET TIME ZONE 'UTC'",
            "set search_path to app, public",
            "SET ROLE reader",
            "set my.setting = 'a'",
            "set session my.setting to 'b'",
            "set DateStyle = 'SQL, DMY'",
            "RESET time zone",
            "reset all",
            "discard all",
            "set session characteristics as transaction isolation level serializable",
            "select set_config('app.user', 'alice', false)",
            "SELECT set_config('search_path', 'app,public', FALSE);"})
    void replaysSessionSettings(String sql) {
        assertEquals(SessionState.Effect.REPLAYED, effect(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "select @x",
            "select name from person where id = ?",
            "set global max_connections = 100",
            "SET @@global.time_zone = '+00:00'",
            "set password = 'x'",
            "set statement max_statement_time = 1 for select 1",
            "set constraints all deferred",
            "create table t (v int)",
            "insert into t values ('@x')",
            "select 'get_lock(' from dual",
            "select release_lock('name')",
            "update person set name = '@x' where id = 1",
            "select * into person_copy from person"})
    void leavesOtherStatementsAlone(String sql) {
        assertEquals(SessionState.Effect.NONE, effect(sql), sql);
    }

    @Test
    void aUserVariableKeepsTheRestOfTheLogicalConnectionOnThePrimary() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertEquals("r1", who(c), "before: a replica");
            s.execute("SET @x = 42");
            try (ResultSet rs = s.executeQuery("select @x")) {
                rs.next();
                assertEquals(42, rs.getInt(1), "read where it was set");
            }
            assertEquals("primary", who(c));
        }
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c), "a new logical connection starts free");
        }
        assertEquals(2L, servers.router.statistics().count(RouteReason.SESSION_STATE));
    }

    @Test
    void aSessionSettingRunsOnThePrimaryAndIsReplayedOnTheReplicaThatServesTheNextReads() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertEquals("r1", who(c), "the replica connection is open before the setting");
            s.execute("SET SCHEMA other");
            assertEquals("r1/other", who(c), "replayed on the open replica connection");
            s.execute("SET SCHEMA public");
            assertEquals("r1", who(c), "in order");
            s.execute("SET SCHEMA other");
        }
        assertEquals(1, servers.replicas.get(0).evicted.get(), "the replica connection did not go back with the settings");
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertEquals("r1", who(c), "nothing leaks into the next logical connection");
            s.execute("SET SCHEMA other");
        }
        assertEquals(1, servers.replicas.get(0).evicted.get(), "a replica connection that replayed nothing goes back as is");
        assertEquals(4L, servers.router.statistics().count(RouteReason.SESSION_COMMAND));
        assertEquals(0L, servers.router.statistics().count(RouteReason.SESSION_STATE));
        assertEquals(4L, servers.router.statistics().count(RouteReason.REPLICA_READ));
    }

    @Test
    void aReplicaConnectionOpenedLaterReplaysTheWholeHistory() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.execute("SET SCHEMA public");
            s.execute("SET SCHEMA other");
            assertEquals("r1/other", who(c));
        }
    }

    @Test
    void aSessionCommandTheReplicaRefusesKeepsTheConnectionOnThePrimaryWithItsSettings() throws SQLException {
        servers.primary.execute("create schema only_on_primary");
        servers.primary.execute("create table only_on_primary.who (id int primary key, name varchar(20))");
        servers.primary.execute("insert into only_on_primary.who values (1, 'primary/only')");
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.execute("SET SCHEMA only_on_primary");
            assertEquals("primary/only", who(c));
            assertEquals(1L, servers.router.statistics().count(RouteReason.SESSION_STATE));
        }
    }
}
