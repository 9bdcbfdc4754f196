package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;

/** Reads with a consistency requirement choose among every replica that meets it, through the configured balancer. */
class ReplicaSelectionTest {

    private final Servers servers;

    ReplicaSelectionTest() throws SQLException {
        servers = new Servers(3, "round_robin", true);
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private Map<String, Integer> readsPerServer(SessionRouting session, int reads) throws SQLException {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < reads; i++) {
            try (Connection c = servers.open(session)) {
                counts.merge(who(c), 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void boundedStalenessReadsAreBalancedOverEveryReplicaWithinTheBound() throws SQLException {
        servers.nodes.get(0).lagMicros(5_000_000);
        servers.nodes.get(1).lagMicros(100_000);
        servers.nodes.get(2).lagMicros(0);
        SessionRouting session = servers.session(Consistency.boundedStaleness(Duration.ofSeconds(1)));
        assertEquals(Map.of("r2", 10, "r3", 10), readsPerServer(session, 20));
        assertEquals(20L, servers.router.statistics().byReason().get("BOUNDED_STALENESS_REPLICA"));
    }

    @Test
    void boundedStalenessReadsGoToThePrimaryWhenNoReplicaIsWithinTheBound() throws SQLException {
        for (ReplicaNode node : servers.nodes) {
            node.lagMicros(5_000_000);
        }
        SessionRouting session = servers.session(Consistency.boundedStaleness(Duration.ofSeconds(1)));
        assertEquals(Map.of("primary", 3), readsPerServer(session, 3));
        assertEquals(3L, servers.router.statistics().byReason().get("STALENESS_BOUND_PRIMARY"));
    }

    @Test
    void boundedStalenessUsesAnotherTierWhenTheBestTierIsTooFarBehind() throws SQLException {
        Servers tiered = new Servers(0, "round_robin", true);
        try {
            // r1 tier 1 lagging, r2 tier 2 in bound: r2 serves
            ReplicaNode r1 = new ReplicaNode(0, "r1", 1, 1, servers.replicas.get(0), false);
            ReplicaNode r2 = new ReplicaNode(1, "r2", 1, 2, servers.replicas.get(1), false);
            ReplicaSet set = new ReplicaSet("tiers", java.util.List.of(r1, r2),
                    io.rwsplit.internal.balance.LoadBalancers.create("round_robin"), tiered.clock,
                    new io.rwsplit.internal.health.HealthPolicy(2, 1_000_000, 1_000_000_000L));
            r1.lagMicros(5_000_000);
            assertEquals(r2, set.choose(node -> node.lagMicros() <= 1_000_000));
            assertEquals(r1, set.choose(node -> true), "without a requirement the best tier serves");
        }
        finally {
            tiered.close();
        }
    }

    @Test
    void eventualReadsUseEveryReplica() throws SQLException {
        SessionRouting session = servers.session(Consistency.eventual());
        assertEquals(Map.of("r1", 2, "r2", 2, "r3", 2), readsPerServer(session, 6));
    }
}
