package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.internal.replica.ReplicaMonitor;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.spi.Clock;
import io.rwsplit.testing.H2Server;
import io.rwsplit.testing.SwitchableDataSource;

/**
 * A replica that stops answering without closing its sockets (SIGSTOP, a paused VM, a partition): the monitor's probes
 * time out, it marks the replica DOWN, and the connections lent to it are aborted, so that a read blocked on it fails
 * with a connection error and, being an autocommit read that returned nothing yet, runs again on another replica.
 * Connections lent and given back are tracked per replica, and the primary goes back to its pool even when giving
 * the replica back throws.
 */
class FrozenReplicaTest {

    @Test
    void aReadBlockedOnAReplicaThatStopsAnsweringTheMonitorIsAbortedAndRunsAgainOnTheOtherReplica() throws Exception {
        try (Servers servers = new Servers(2, "round_robin")) {
            H2Server r1 = servers.replicas.get(0);
            SwitchableDataSource r1Probes = new SwitchableDataSource(r1.url);
            HealthConfig config = new HealthConfig("auto", Duration.ofMillis(20), Duration.ofSeconds(1), Duration.ofSeconds(1),
                    2, Duration.ofSeconds(1), "rwsplit_heartbeat", 0, Duration.ofSeconds(1));
            ReplicaMonitor monitor = new ReplicaMonitor(servers.set, List.of(
                    new ReplicaConfig("r1", null, null, null, 1, 1, r1Probes),
                    new ReplicaConfig("r2", null, null, null, 1, 1, servers.replica(1))),
                    config, servers.router.primary(), Clock.SYSTEM).start();
            try {
                r1.frozen = true;
                // two autocommit reads one after the other: round robin sends one of them to r1, where it blocks
                CompletableFuture<List<String>> reads = CompletableFuture.supplyAsync(() -> {
                    try (Connection a = servers.open(); Connection b = servers.open()) {
                        return List.of(Servers.who(a), Servers.who(b));
                    }
                    catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertTrue(r1.firstBlocked.await(10, TimeUnit.SECONDS), "a read blocked on r1");
                assertEquals(1, servers.nodes.get(0).lentCount(), "r1 lent the blocked read its connection");
                assertFalse(reads.isDone());

                // r1 stops answering the monitor too: its probes time out
                r1Probes.goDown(new SQLNonTransientConnectionException("simulated: Read timed out", "08S01"));

                assertEquals(List.of("r2", "r2"), reads.get(10, TimeUnit.SECONDS), "the blocked read ran again on r2");
                assertEquals(ReplicaState.DOWN, servers.set.health().replicas().get(0).state());
                assertEquals(1, r1.aborted.size(), "the connection lent to r1 was aborted");
                assertTrue(r1.abortedBy.get(0).startsWith("rwsplit-abort-test-"), "aborted on a thread of its own, not"
                        + " the probe's: " + r1.abortedBy);
                assertEquals(1L, servers.router.statistics().byReason().get("RETRY_REPLICA"));
                assertEquals(0, servers.nodes.get(0).lentCount());
                assertEquals(0, servers.nodes.get(1).lentCount(), "every connection went back");
            }
            finally {
                monitor.close();
            }
        }
    }

    @Test
    void aConnectionIsLentFromItsBorrowingUntilItGoesBack() throws SQLException {
        try (Servers servers = new Servers(1, "round_robin")) {
            ReplicaNode node = servers.nodes.get(0);
            Connection c = servers.router.borrow(node);
            assertEquals(1, node.lentCount());
            servers.router.giveBack(node, c, false);
            assertEquals(0, node.lentCount());
        }
    }

    @Test
    void thePrimaryConnectionGoesBackEvenWhenGivingBackTheReplicaConnectionThrows() throws SQLException {
        try (Servers servers = new Servers(1, "round_robin")) {
            Connection c = servers.open();
            assertEquals("r1", Servers.who(c));
            c.setAutoCommit(false);
            try (var insert = c.prepareStatement("insert into item (label) values ('x')")) {
                insert.executeUpdate();
            }
            c.commit();
            servers.replicas.get(0).closeThrows = true;
            assertThrows(IllegalStateException.class, c::close);
            assertEquals(1, servers.primary.handedOut.size());
            assertTrue(servers.primary.handedOut.get(0).isClosed(), "the primary connection went back to its pool");
            assertEquals(0, servers.nodes.get(0).lentCount());
        }
    }
}
