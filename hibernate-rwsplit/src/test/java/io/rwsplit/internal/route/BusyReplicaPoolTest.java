package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.health.ReplicaState;

/**
 * Saturation is not failure: a replica pool that cannot lend a connection in time sends the read to another
 * replica, then to the primary, with a reason of its own, and the replica stays in rotation; a pool whose
 * timeout carries the driver's failure to connect is a failed server, as before.
 */
class BusyReplicaPoolTest {

    private final Servers servers;

    BusyReplicaPoolTest() throws SQLException {
        servers = new Servers(2, "round_robin");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** What HikariCP throws when every connection stays borrowed for its whole connectionTimeout. */
    static SQLException hikariTimeout(String pool) {
        return new SQLTransientConnectionException(pool + " - Connection is not available, request timed out after"
                + " 251ms (total=2, active=2, idle=0, waiting=3)");
    }

    /** What HikariCP throws when its last attempt to connect failed: the driver's error is cause and next exception. */
    static SQLException hikariTimeoutAfterConnectFailure(String pool) {
        SQLException refused = new SQLException("Socket fail to connect to host:address=(host=127.0.0.1)(port=1)."
                + " Connection refused", "08000");
        SQLException timeout = new SQLTransientConnectionException(pool + " - Connection is not available, request"
                + " timed out after 251ms (total=0, active=0, idle=0, waiting=0)", "08000", 0, refused);
        timeout.setNextException(refused);
        return timeout;
    }

    private Map<String, Long> reasons() {
        return servers.router.statistics().byReason();
    }

    private ReplicaState state(int replica) {
        return servers.set.health().replicas().get(replica).state();
    }

    @Test
    void aReadWhoseReplicaPoolIsBusyGoesToTheOtherReplicaAndBothStayInRotation() throws SQLException {
        servers.replicas.get(0).lendFails = () -> hikariTimeout("r1");
        try (Connection c = servers.open()) {
            assertEquals("r2", who(c), "round robin starts with r1, whose pool is busy");
        }
        assertEquals(1L, reasons().get(RouteReason.REPLICA_POOL_EXHAUSTED_REPLICA.name()));
        assertNull(reasons().get(RouteReason.REPLICA_READ.name()));
        assertEquals(ReplicaState.UP, state(0), "a busy pool says nothing about its server");
        assertEquals(ReplicaState.UP, state(1));
        assertEquals(0L, servers.set.health().ejections().get("r1"));
    }

    @Test
    void aReadGoesToThePrimaryWhenEveryReplicaPoolIsBusyAskingEachPoolOnce() throws SQLException {
        servers.replicas.get(0).lendFails = () -> hikariTimeout("r1");
        servers.replicas.get(1).lendFails = () -> hikariTimeout("r2");
        try (Connection c = servers.open()) {
            assertEquals("primary", who(c));
        }
        assertEquals(1L, reasons().get(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name()));
        assertNull(reasons().get(RouteReason.NO_HEALTHY_REPLICA.name()));
        assertEquals(1, servers.replicas.get(0).refusedLends.get());
        assertEquals(1, servers.replicas.get(1).refusedLends.get());
        assertEquals(ReplicaState.UP, state(0));
        assertEquals(ReplicaState.UP, state(1));
        assertTrue(servers.router.statistics().replicaReadShare() == 0.0, "the fallback costs replica share");
    }

    @Test
    void theNextStatementAsksTheReplicasAgainOnceTheirPoolsLend() throws SQLException {
        servers.replicas.get(0).lendFails = () -> hikariTimeout("r1");
        servers.replicas.get(1).lendFails = () -> hikariTimeout("r2");
        try (Connection c = servers.open()) {
            assertEquals("primary", who(c));
            servers.replicas.get(0).lendFails = null;
            servers.replicas.get(1).lendFails = null;
            assertTrue(who(c).startsWith("r"), "the same logical connection reads from a replica again");
        }
        assertEquals(1L, reasons().get(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name()));
        assertEquals(1L, reasons().get(RouteReason.REPLICA_READ.name()));
    }

    @Test
    void aReadOnlyTransactionThatFindsEveryPoolBusyStaysOnThePrimaryForThatReason() throws SQLException {
        servers.replicas.get(0).lendFails = () -> hikariTimeout("r1");
        servers.replicas.get(1).lendFails = () -> hikariTimeout("r2");
        try (Connection c = servers.open()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertEquals("primary", who(c));
            servers.replicas.get(0).lendFails = null;
            assertEquals("primary", who(c), "one snapshot for the whole transaction");
            c.commit();
            c.setAutoCommit(true);
        }
        assertEquals(2L, reasons().get(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name()));
        assertEquals(1, servers.replicas.get(0).refusedLends.get(), "the transaction asked each pool once");
        assertEquals(1, servers.replicas.get(1).refusedLends.get());
    }

    @Test
    void aPoolTimeoutCarryingTheDriversConnectFailureTakesTheReplicaOutOfRotation() throws SQLException {
        servers.replicas.get(0).lendFails = () -> hikariTimeoutAfterConnectFailure("r1");
        try (Connection c = servers.open()) {
            assertEquals("r2", who(c));
        }
        assertEquals(ReplicaState.DOWN, state(0), "the server refused connections");
        assertEquals(1L, reasons().get(RouteReason.REPLICA_READ.name()), "a failed replica is not a busy one");
        assertNull(reasons().get(RouteReason.REPLICA_POOL_EXHAUSTED_REPLICA.name()));
    }
}
