package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A string of several statements (a multi-statement string the driver sends whole: {@code allowMultiQueries},
 * PostgreSQL's simple protocol) whose first one is a transaction boundary or a session setting: it runs on the
 * primary, counts as a write, pins the connection, is never replayed on a replica, and whatever it leaves of a
 * transaction counts for read-your-writes when it commits. The consistency runs in time mode (H2 has no replication
 * position): a read within the window of a recorded write goes to the primary.
 */
class SeveralStatementsTest {

    private final Servers servers = new Servers(1, "round_robin", true);
    private final SessionRouting session = servers.session(Consistency.readYourWrites());

    SeveralStatementsTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static int items(java.sql.Connection server) throws SQLException {
        try (server; Statement s = server.createStatement(); ResultSet rs = s.executeQuery("select count(*) from item")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aWriteInATransactionOfOneStringIsReadBackByTheNextConnectionOfTheSession() throws SQLException {
        try (Connection c = servers.open(session)) {
            execute(c, "BEGIN; insert into item (label) values ('m'); COMMIT");
        }
        assertEquals(1, items(servers.primary.getConnection()));
        try (Connection next = servers.open(session)) {
            assertEquals("primary", who(next), "the write is recorded: within its window, the primary");
        }
    }

    @Test
    void theConnectionStaysOnThePrimaryAndInAutocommitAfterIt() throws SQLException {
        try (Connection c = servers.open(session)) {
            execute(c, "BEGIN TRANSACTION; insert into item (label) values ('m'); COMMIT");
            servers.pastEveryTimeWindow();
            assertTrue(c.getAutoCommit());
            assertEquals("primary", who(c));
            assertEquals(1L, servers.router.statistics().byReason().get("SESSION_STATE"),
                    "pinned by the string, not held in a transaction it never saw end");
            assertNull(servers.router.statistics().byReason().get("WRITE_TRANSACTION"));
        }
    }

    @Test
    void aTransactionLeftOpenByTheStringCountsWhenALaterStatementCommitsIt() throws SQLException {
        try (Connection c = servers.open(session)) {
            execute(c, "BEGIN; insert into item (label) values ('m')");
            servers.pastEveryTimeWindow();   // what was read before the COMMIT ran is old by now
            execute(c, "COMMIT");
        }
        try (Connection next = servers.open(session)) {
            assertEquals("primary", who(next), "recorded once the COMMIT ran");
        }
    }

    @Test
    void aTokenAskedForAfterALaterCommitCarriesThatCommit() throws SQLException {
        try (Connection c = servers.open(session)) {
            execute(c, "BEGIN; insert into item (label) values ('m')");
            servers.pastEveryTimeWindow();
            execute(c, "COMMIT");   // what is read before it runs does not hold it
            servers.pastEveryTimeWindow();
            long now = servers.clock.epochMicros();
            assertEquals(now, session.consistency().lastWrite().commitTimeMicros(), "read once the COMMIT ran");
        }
    }

    @Test
    void aSessionSettingFollowedByAWriteIsNeverReplayedOnAReplica() throws SQLException {
        try (Connection c = servers.open(session)) {
            servers.pastEveryTimeWindow();
            assertEquals("r1", who(c), "a replica connection is open");
            execute(c, "SET SCHEMA PUBLIC; insert into item (label) values ('x')");
            assertEquals("primary", who(c));
        }
        assertEquals(1, items(servers.primary.getConnection()));
        assertEquals(0, items(servers.replicas.get(0).getConnection()), "no write on the replica");
    }

    @Test
    void aStringThatWritesIsRefusedOnAReadOnlyConnection() throws SQLException {
        try (Connection c = servers.open(session)) {
            c.setReadOnly(true);
            SQLException refused = assertThrows(SQLException.class,
                    () -> execute(c, "BEGIN; insert into item (label) values ('m'); COMMIT"));
            assertEquals("25006", refused.getSQLState());
        }
        assertEquals(0, items(servers.primary.getConnection()));
    }
}
