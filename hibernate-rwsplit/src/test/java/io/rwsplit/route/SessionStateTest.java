package io.rwsplit.route;

import static io.rwsplit.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
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

    private static boolean creates(String sql) {
        return SessionState.creates(sql, SqlClassifier.classify(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SET @x := 1",
            "set @x = 1, @y = 2",
            "/* app */ set @`quoted` = 1",
            "set session sql_mode = @saved",
            "CREATE TEMPORARY TABLE t (v int)",
            "create or replace temporary table t (v int)",
            "select get_lock('name', 10)",
            "SELECT GET_LOCK ('name', 10)",
            "select id into @id from person where id = 1",
            "PREPARE s FROM 'select 1'"})
    void recognisesStatementsThatCreateSessionState(String sql) {
        assertTrue(creates(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "select @x",
            "select name from person where id = ?",
            "set @@session.innodb_lock_wait_timeout = 5",
            "SET autocommit = 0",
            "set names utf8mb4",
            "create table t (v int)",
            "insert into t values ('@x')",
            "select 'get_lock(' from dual",
            "select release_lock('name')",
            "update person set name = '@x' where id = 1",
            "set transaction isolation level read committed"})
    void leavesOtherStatementsAlone(String sql) {
        assertTrue(!creates(sql), sql);
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
}
