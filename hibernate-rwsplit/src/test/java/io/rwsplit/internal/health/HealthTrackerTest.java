package io.rwsplit.internal.health;

import static io.rwsplit.health.ReplicaState.DOWN;
import static io.rwsplit.health.ReplicaState.LAGGING;
import static io.rwsplit.health.ReplicaState.UP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.health.ReplicaState;

class HealthTrackerTest {

    private static final long MS = 1_000_000L;
    /** failure_threshold 2, max_lag 1 s, recovery_period 1 s */
    private final HealthTracker tracker = new HealthTracker("r1", new HealthPolicy(2, 1_000_000, 1000 * MS));
    private long now = 5_000 * MS;

    private void tick() {
        now += 250 * MS;
    }

    @Test
    void startsUp() {
        assertEquals(UP, tracker.state());
        assertEquals(0, tracker.ejections());
    }

    @Test
    void oneFailedProbeDoesNotEject() {
        assertFalse(tracker.probeFailed(now, "timeout"));
        assertEquals(UP, tracker.state());
        tick();
        tracker.probeSucceeded(now, 0, null);
        tick();
        tracker.probeFailed(now, "timeout");
        assertEquals(UP, tracker.state(), "failures must be consecutive");
    }

    @Test
    void ejectsAfterConsecutiveProbeFailures() {
        tracker.probeFailed(now, "refused");
        tick();
        assertTrue(tracker.probeFailed(now, "refused"));
        assertEquals(DOWN, tracker.state());
        assertEquals(1, tracker.ejections());
        assertEquals("refused", tracker.status().lastError());
    }

    @Test
    void ejectsWhenLagExceedsMaxLag() {
        tracker.probeSucceeded(now, 1_000_000, null);
        assertEquals(UP, tracker.state(), "exactly max_lag is still fine");
        tick();
        assertTrue(tracker.probeSucceeded(now, 1_000_001, null));
        assertEquals(LAGGING, tracker.state());
        assertEquals(1_000_001, tracker.status().lagMicros());
    }

    @Test
    void brokenReplicationIsLaggingNotZeroLag() {
        assertTrue(tracker.probeBroken(now, "SQL thread stopped", null));
        assertEquals(LAGGING, tracker.state());
        assertEquals("SQL thread stopped", tracker.status().lastError());
    }

    @Test
    void readFailureEjectsAtOnce() {
        assertTrue(tracker.readFailed(now, "socket closed"));
        assertEquals(DOWN, tracker.state());
        assertEquals(1, tracker.ejections());
    }

    @Test
    void returnsOnlyAfterStayingHealthyForTheRecoveryPeriod() {
        tracker.readFailed(now, "socket closed");
        tick();
        tracker.probeSucceeded(now, 0, null);
        assertEquals(LAGGING, tracker.state(), "reachable again, not yet trusted");
        long firstHealthy = now;
        while (now - firstHealthy < 1000 * MS - 250 * MS) {
            tick();
            tracker.probeSucceeded(now, 0, null);
            assertEquals(LAGGING, tracker.state());
        }
        tick();
        assertTrue(tracker.probeSucceeded(now, 0, null));
        assertEquals(UP, tracker.state());
        assertNull(tracker.status().lastError());
    }

    @Test
    void lagThatComesAndGoesNeverFlapsBackIn() {
        tracker.probeSucceeded(now, 2_000_000, null);
        int changes = 0;
        for (int i = 0; i < 100; i++) {
            tick();
            if (tracker.probeSucceeded(now, i % 3 == 2 ? 1_500_000 : 100_000, null)) {
                changes++;
            }
        }
        assertEquals(LAGGING, tracker.state());
        assertEquals(0, changes, "a lag spike every 750 ms restarts the 1 s recovery period each time");
        assertEquals(1, tracker.ejections());
    }

    @Test
    void aFailedProbeRestartsTheRecoveryPeriod() {
        tracker.readFailed(now, "x");
        for (int i = 0; i < 3; i++) {
            tick();
            tracker.probeSucceeded(now, 0, null);
        }
        tick();
        tracker.probeFailed(now, "blip");
        for (int i = 0; i < 4; i++) {
            tick();
            tracker.probeSucceeded(now, 0, null);
            assertFalse(tracker.state() == UP);
        }
        tick();
        tracker.probeSucceeded(now, 0, null);
        assertEquals(UP, tracker.state());
    }

    @Test
    void zeroMaxLagMeansNoLagLimitAndZeroRecoveryReturnsAtOnce() {
        HealthTracker t = new HealthTracker("r", new HealthPolicy(1, 0, 0));
        t.probeSucceeded(now, 3_600_000_000L, null);
        assertEquals(UP, t.state());
        t.probeFailed(now, "x");
        assertEquals(DOWN, t.state());
        t.probeSucceeded(now + 1, 0, null);
        assertEquals(UP, t.state());
    }

    @Test
    void keepsTheLastGtidPosition() {
        GtidPosition p = GtidPosition.parse("0-1-42");
        tracker.probeSucceeded(now, 0, p);
        tick();
        tracker.probeFailed(now, "x");
        assertEquals(p, tracker.status().position());
        assertEquals(now, tracker.status().observedAtNanos());
    }

    @Test
    void aSawtoothLagIsJudgedByItsPeakOverTheWindow() {
        HealthTracker t = new HealthTracker("r", new HealthPolicy(2, 3_000_000, 0));
        long[] sawtooth = {1_400_000, 1_650_000, 1_900_000, 2_150_000};
        for (int i = 0; i < 20; i++) {
            tick();
            t.probeSucceeded(now, sawtooth[i % 4], null);
            if (i >= 3) {
                assertEquals(2_150_000, t.status().lagMicros(), "probe " + i);
            }
        }
        // the peak ages out of the window
        for (int i = 0; i < 7; i++) {
            tick();
            t.probeSucceeded(now, 10_000, null);
        }
        assertEquals(10_000, t.status().lagMicros());
    }

    @Test
    void aReplicaFoundToBeThePrimaryLeavesRotationAndComesBackOnlyAsAReplicaAfterTheRecoveryPeriod() {
        assertTrue(tracker.probeFoundPrimary(now, "pg_is_in_recovery() is false"));
        assertEquals(ReplicaState.PRIMARY, tracker.state());
        assertFalse(tracker.status().isUp());
        assertEquals(1, tracker.ejections());
        tick();
        assertFalse(tracker.probeFoundPrimary(now, "pg_is_in_recovery() is false"), "it stays the primary");
        tick();
        tracker.probeSucceeded(now, 0, null); // a replica again (an operator made it one)
        assertEquals(LAGGING, tracker.state());
        for (int i = 0; i < 4; i++) {
            tick();
            tracker.probeSucceeded(now, 0, null);
        }
        assertEquals(UP, tracker.state());
    }
}
