package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Settings made on the logical connection reach every physical connection behind it: those open when they are set
 * and those opened later (a replica connection opened for the next read, the primary for the next write).
 */
class ConnectionSettingsTest {

    private static final Executor CALLER = Runnable::run;
    private final Servers servers;

    ConnectionSettingsTest() throws SQLException {
        servers = new Servers(1, "round_robin");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private static void write(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into item (label) values ('a')")) {
            ps.executeUpdate();
        }
    }

    @Test
    void aNetworkTimeoutSetBeforeAnyStatementReachesTheConnectionsOpenedLater() throws SQLException {
        try (Connection c = servers.open()) {
            c.setNetworkTimeout(CALLER, 1234);
            assertEquals("r1", who(c));
            write(c);
            assertEquals(1234, c.getNetworkTimeout());
        }
        assertEquals(List.of(1234), servers.replicas.get(0).networkTimeouts, "the replica connection opened for the read");
        assertEquals(List.of(1234), servers.primary.networkTimeouts, "the primary connection opened for the write");
    }

    @Test
    void aNetworkTimeoutSetLaterReachesTheOpenConnections() throws SQLException {
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c));
            write(c);
            c.setNetworkTimeout(CALLER, 500);
        }
        assertEquals(List.of(500), servers.replicas.get(0).networkTimeouts);
        assertEquals(List.of(500), servers.primary.networkTimeouts);
    }

    @Test
    void aNegativeNetworkTimeoutIsRefused() throws SQLException {
        try (Connection c = servers.open()) {
            SQLException e = assertThrows(SQLException.class, () -> c.setNetworkTimeout(CALLER, -5));
            assertEquals("22023", e.getSQLState());
        }
    }

    @Test
    void aSchemaSetBeforeTheFirstReadIsTheReplicaConnectionsToo() throws SQLException {
        try (Connection c = servers.open()) {
            c.setSchema("OTHER");
            assertEquals("r1/other", who(c));
            assertEquals("OTHER", c.getSchema());
        }
    }
}
