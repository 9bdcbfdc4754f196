package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.replica.PoolControl;

/** The history of session commands, its bound, and its transaction rules, on one H2 connection as the replica. */
class SessionCommandsTest {

    private final Connection replica;
    private final List<Connection> evicted = new ArrayList<>();
    private final PoolControl pool = new PoolControl() {
        @Override
        public String initSql() {
            return "SET SCHEMA PUBLIC";
        }

        @Override
        public void evict(Connection connection) {
            evicted.add(connection);
        }
    };

    SessionCommandsTest() throws SQLException {
        replica = DriverManager.getConnection("jdbc:h2:mem:cmds_" + UUID.randomUUID(), "sa", "");
        try (Statement s = replica.createStatement()) {
            s.execute("create schema other");
        }
    }

    @AfterEach
    void close() throws SQLException {
        replica.close();
    }

    private String schema() throws SQLException {
        try (Statement s = replica.createStatement(); ResultSet rs = s.executeQuery("select current_schema")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void whereARollbackUndoesSessionCommandsTheirHistoryFollowsTheTransaction() throws SQLException {
        SessionCommands commands = new SessionCommands(true);
        commands.record("SET SCHEMA other", true);
        commands.replicaOpened();
        commands.replayOn(replica, true);
        assertEquals("OTHER", schema());
        assertTrue(commands.changedInTransaction());
        commands.transactionEnded(true);
        assertFalse(commands.replicaChanged(), "what the replica replayed in the transaction was undone with it");
        assertFalse(commands.changedInTransaction());
        commands.replayOn(replica, false);
        assertFalse(commands.replicaChanged(), "the rolled back command is not replayed again");
    }

    @Test
    void whereSessionCommandsOutliveARollbackTheyStay() throws SQLException {
        SessionCommands commands = new SessionCommands(false);
        commands.record("SET SCHEMA other", true);
        commands.replicaOpened();
        commands.replayOn(replica, true);
        commands.transactionEnded(true);
        assertTrue(commands.replicaChanged());
        assertFalse(commands.reset(replica, pool), "closed for good by its pool");
        assertEquals(List.of(replica), evicted);
    }

    @Test
    void aResetThatFailsClosesTheConnectionForGood() throws SQLException {
        SessionCommands commands = new SessionCommands(true);
        commands.record("SET SCHEMA other", false);
        commands.replicaOpened();
        commands.replayOn(replica, false);
        // H2 has no RESET ALL: the reset fails, so the pool closes the connection for good
        assertFalse(commands.reset(replica, pool));
        assertEquals(List.of(replica), evicted);
    }

    @Test
    void theHistoryIsBounded() {
        SessionCommands commands = new SessionCommands(false);
        for (int i = 0; i < SessionCommands.LIMIT; i++) {
            assertTrue(commands.record("SET SCHEMA other", false));
        }
        assertFalse(commands.record("SET SCHEMA other", false));
    }
}
