package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A Statement's batch runs where its statements were added (the primary, for writes), whatever the same Statement
 * executes in between: one server would run the batch it was given, never answer it with an empty result.
 */
class StatementBatchTest {

    private final Servers servers = new Servers(1, "round_robin", true);

    StatementBatchTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    @Test
    void aReadOnAReplicaBetweenAddBatchAndExecuteBatchLeavesTheBatchOnThePrimary() throws SQLException {
        SessionRouting session = servers.session(Consistency.eventual());
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.addBatch("insert into item (label) values ('100')");
            assertEquals("r1", name(st), "the read in between runs on a replica");
            st.addBatch("insert into item (label) values ('101')");
            assertArrayEquals(new int[] {1, 1}, st.executeBatch());
            assertEquals(2, count("select count(*) from item where label in ('100', '101')"));
            assertArrayEquals(new int[0], st.executeBatch(), "the batch ran once");
        }
    }

    @Test
    void aBatchExecutedAfterAReadIsAWriteForReadYourWrites() throws SQLException {
        SessionRouting session = servers.session(Consistency.readYourWrites());
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            servers.pastEveryTimeWindow();
            st.addBatch("insert into item (label) values ('200')");
            assertEquals("primary", name(st), "right after the batch's statement was routed: the time window");
            servers.pastEveryTimeWindow();
            assertEquals("r1", name(st), "the window of the add has passed");
            st.executeBatch();
            assertEquals("primary", name(st), "the batch's execution is the write");
        }
    }

    @Test
    void clearBatchDropsThePendingStatements() throws SQLException {
        SessionRouting session = servers.session(Consistency.eventual());
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.addBatch("insert into item (label) values ('300')");
            st.clearBatch();
            assertArrayEquals(new int[0], st.executeBatch());
            assertEquals(0, count("select count(*) from item where label = '300'"));
        }
    }

    private static String name(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("select name from who where id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private int count(String sql) throws SQLException {
        try (Connection p = servers.primary.getConnection(); Statement st = p.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
