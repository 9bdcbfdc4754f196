package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.health.HealthPolicy;
import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.spi.LagSample;
import io.rwsplit.testing.FakeClock;

class ReplicaSetTest {

    private final FakeClock clock = new FakeClock();
    private final ReplicaNode a = new ReplicaNode(0, "a", 1, 1, null, false);
    private final ReplicaNode b = new ReplicaNode(1, "b", 1, 1, null, false);
    private final ReplicaNode far = new ReplicaNode(2, "far", 1, 2, null, false);
    private final ReplicaSet set = new ReplicaSet("test", List.of(a, b, far), LoadBalancers.create("round_robin"), clock,
            new HealthPolicy(2, 1_000_000, 1_000_000_000L));

    private Set<ReplicaNode> chosen() {
        Set<ReplicaNode> nodes = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            nodes.add(set.choose());
        }
        return nodes;
    }

    @Test
    void tierTwoOnlyWhenNoTierOneReplicaIsUp() {
        assertEquals(Set.of(a, b), chosen());
        set.markDown(a, new SQLException("gone", "08006"));
        assertEquals(Set.of(b), chosen());
        set.probed(b, LagSample.of(5_000_000), null);
        assertEquals(Set.of(far), chosen());
        set.probeFailed(far, new SQLException("refused"));
        set.probeFailed(far, new SQLException("refused"));
        assertNull(set.choose());
    }

    @Test
    void eachCandidateIsAskedOnceWhetherItMeetsARequirement() {
        java.util.Map<ReplicaNode, Integer> asked = new java.util.HashMap<>();
        // a requirement that grants something once, as a trial read of a standby not known to keep up
        ReplicaNode chosen = set.choose(node -> asked.merge(node, 1, Integer::sum) == 1 && node == b);
        assertSame(b, chosen, "b admitted itself on the only question it was asked");
        assertEquals(java.util.Map.of(a, 1, b, 1), asked, "the best tier, one question each; far not needed");
    }

    @Test
    void publishesAReadOnlySnapshotWithStateLagErrorAndPosition() {
        GtidPosition position = GtidPosition.parse("0-1-7");
        set.probed(a, LagSample.of(1500), position);
        set.probed(b, LagSample.broken("SQL thread stopped"), null);
        ReplicaHealth health = set.health();
        assertEquals(ReplicaState.UP, health.status("a").state());
        assertEquals(1500, health.status("a").lagMicros());
        assertEquals(position, health.status("a").position());
        assertEquals(clock.nanoTime(), health.status("a").observedAtNanos());
        assertEquals(ReplicaState.LAGGING, health.status("b").state());
        assertEquals("SQL thread stopped", health.status("b").lastError());
        assertEquals(1L, health.ejections().get("b"));
        assertEquals(List.of("a", "far"), health.up().stream().map(s -> s.name()).toList());
        assertEquals(1500, a.lagMicros(), "balancers see the lag");
    }

    @Test
    void aReplicaComesBackAfterTheRecoveryPeriod() {
        set.markDown(a, new SQLException("gone", "08006"));
        set.probed(a, LagSample.of(0), null);
        assertTrue(!set.isUp(a));
        clock.advanceMillis(999);
        set.probed(a, LagSample.of(0), null);
        assertTrue(!set.isUp(a));
        clock.advanceMillis(1);
        set.probed(a, LagSample.of(0), null);
        assertTrue(set.isUp(a));
        assertEquals(Set.of(a, b), chosen());
    }

    @Test
    void keepsTheCandidateListInstanceWhileMembershipDoesNotChange() {
        List<ReplicaNode> before = set.candidates();
        set.probed(a, LagSample.of(10), null);
        set.probed(b, LagSample.of(20), null);
        assertSame(before, set.candidates());
        set.markDown(a, null);
        assertEquals(List.of(b), set.candidates());
    }

    @Test
    void aFailedProbeOrAReadThatLostItsConnectionForgetsWhatTheReplicaToldBefore() {
        long first = set.epochs().current(0);
        set.probed(a, LagSample.of(0), GtidPosition.parsePostgres("0/20"));
        assertEquals(first, set.epochs().current(0), "a successful probe keeps the epoch");
        set.probeFailed(a, new SQLException("refused"));
        long second = set.epochs().current(0);
        assertTrue(second != first, "one failed probe is enough, long before the failure threshold");
        set.markDown(a, new SQLException("gone", "08006"));
        assertTrue(set.epochs().current(0) != second);
        assertEquals(0, set.epochs().current(1), "the other replicas keep theirs");
    }

    @Test
    void aFailedProbeSaysWhetherTheReplicaIsDownNowThatItStoppedAnswering() {
        assertFalse(set.probeFailed(a, new SQLException("Read timed out", "08S01")), "one failure of a threshold of 2");
        assertTrue(set.probeFailed(a, new SQLException("Read timed out", "08S01")), "DOWN now");
        assertTrue(set.probeFailed(a, new SQLException("Read timed out", "08S01")), "still DOWN: lent connections may be"
                + " stuck on it still");
        assertFalse(set.probeFailed(b, new SQLException("Read timed out", "08S01")));
    }
}
