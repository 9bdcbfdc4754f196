package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Settings made on the logical connection (client info and the type map among them) reach every physical connection
 * behind it: those open when they are set and those opened later (a replica connection opened for the next read, the
 * primary for the next write).
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

    /** The physical connection the primary's pool lent first. */
    private Connection primaryConnection() {
        return servers.primary.handedOut.get(0);
    }

    /** The physical connection the replica's pool lent first. */
    private Connection replicaConnection() {
        return servers.replicas.get(0).handedOut.get(0);
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

    @Test
    void clientInfoSetBeforeTheFirstReadIsTheReplicaConnectionsToo() throws SQLException {
        try (Connection c = servers.open()) {
            c.setClientInfo("ApplicationName", "billing");
            assertEquals("r1", who(c));
            assertEquals("billing", replicaConnection().getClientInfo("ApplicationName"),
                    "the replica connection opened for the read");
            assertEquals("billing", primaryConnection().getClientInfo("ApplicationName"));
            assertEquals("billing", c.getClientInfo("ApplicationName"));
        }
    }

    @Test
    void aReplicaThatRefusesTheClientInfoStillServesTheReadAndStaysUp() throws SQLException {
        servers.replicas.get(0).refusesClientInfo = true;
        try (Connection c = servers.open()) {
            c.setClientInfo("ApplicationName", "billing");   // on the primary's connection, which takes it
            assertEquals("r1", who(c), "the read runs on the replica, without the property");
            c.setClientInfo("ClientUser", "ann");   // the open replica connection refuses it too
            assertEquals("ann", c.getClientInfo("ClientUser"), "the call succeeded: the primary's connection has it");
        }
        assertTrue(servers.set.isUp(servers.nodes.get(0)), "a refused property says nothing of the replica's health");
    }

    @Test
    void clientInfoSetLaterReachesTheOpenReplicaConnection() throws SQLException {
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c));
            c.setClientInfo("ApplicationName", "billing");
            assertEquals("billing", replicaConnection().getClientInfo("ApplicationName"));
            assertEquals("billing", primaryConnection().getClientInfo("ApplicationName"));
        }
    }

    @Test
    void aClientInfoSetReplacesThePropertiesSetByNameOnEveryConnection() throws SQLException {
        Properties set = new Properties();
        set.setProperty("ApplicationName", "billing");
        try (Connection c = servers.open()) {
            c.setClientInfo("ClientUser", "alice");
            c.setClientInfo(set);
            set.setProperty("ApplicationName", "changed by the caller");   // after the call: not the connection's
            c.setClientInfo("ClientHostname", "app-1");   // set by name after the set: kept beside it
            assertEquals("r1", who(c));
            for (Connection physical : List.of(primaryConnection(), replicaConnection())) {
                assertEquals("billing", physical.getClientInfo("ApplicationName"));
                assertEquals("app-1", physical.getClientInfo("ClientHostname"));
                assertNull(physical.getClientInfo("ClientUser"), "replaced by the set");
            }
        }
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c));
            List<Connection> lent = servers.replicas.get(0).handedOut;
            assertNull(lent.get(lent.size() - 1).getClientInfo("ApplicationName"),
                    "the next session's replica connection has nothing of the last session's client info");
        }
    }

    @Test
    void aTypeMapSetOnTheConnectionIsTheReplicaConnectionsToo() throws SQLException {
        Map<String, Class<?>> map = Map.of("POINT", String.class);
        try (Connection c = servers.open()) {
            c.setTypeMap(map);
            assertEquals("r1", who(c));
            assertEquals(map, replicaConnection().getTypeMap());
            assertEquals(map, primaryConnection().getTypeMap());
            assertEquals(map, c.getTypeMap());
        }
    }

    @Test
    void clientInfoOnAClosedConnectionFailsWithItsSqlState() throws SQLException {
        Connection c = servers.open();
        c.close();
        assertEquals("08003",
                assertThrows(SQLException.class, () -> c.setClientInfo("ApplicationName", "x")).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, () -> c.setTypeMap(Map.of())).getSQLState());
    }
}
