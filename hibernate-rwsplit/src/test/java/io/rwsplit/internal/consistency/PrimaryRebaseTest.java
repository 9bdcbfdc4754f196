package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;

/**
 * Re-basing after a failover, with a fake clock: a write committed on the old primary requires what the new
 * primary had when the failover was seen; writes committed on the new primary keep their own positions; what
 * replicas were known to have applied (from the old primary's numbering) is forgotten.
 */
class PrimaryRebaseTest {

    private final FakeClock clock = new FakeClock();
    private final ConsistencyRuntime runtime = ConsistencyRuntime.create(Map.of(), clock);
    private final io.rwsplit.internal.health.ServerEpochs epochs = new io.rwsplit.internal.health.ServerEpochs(2);
    private final CausalReads causal = new CausalReads(runtime, "default", epochs);

    private static LsnPosition lsn(long value) {
        return LsnPosition.of(value);
    }

    private ConsistencyToken write(long position) {
        return ConsistencyToken.of(lsn(position), clock.epochMicros());
    }

    @Test
    void aWriteOfTheOldPrimaryRequiresWhatTheNewPrimaryHadAtTheFailover() {
        SessionConsistency before = causal.newSession();
        before.committed(write(9_000)); // the old primary wrote past what the new one received
        assertEquals(lsn(9_000), causal.newSession().requirement().positionOrNull());

        clock.advance(Duration.ofMillis(300));
        causal.primaryChanged(lsn(8_000)); // the new primary stands at 8000 on its timeline

        SessionConsistency reader = causal.newSession();
        assertEquals(lsn(8_000), reader.requirement().positionOrNull(), "the unit's old position is re-based");
        assertEquals(lsn(8_000), before.requirement().positionOrNull(), "so is a session's own old write");
        assertTrue(lsn(8_500).contains(reader.requirement().positionOrNull()),
                "a standby following the new primary past 8000 serves the read, long before it would reach 9000");
    }

    @Test
    void aWriteOnTheNewPrimaryKeepsItsOwnPosition() {
        causal.newSession().committed(write(9_000));
        clock.advance(Duration.ofMillis(300));
        causal.primaryChanged(lsn(8_000));
        clock.advance(Duration.ofMillis(10));
        SessionConsistency writer = causal.newSession();
        writer.committed(write(8_100));

        assertEquals(lsn(8_100), causal.newSession().requirement().positionOrNull());
        assertEquals(lsn(8_100), writer.requirement().positionOrNull());
    }

    /**
     * The monitor reads the new primary's position (8000), and a session commits 8100 there before the monitor reports
     * the failover: the base stands at the time read before the position, so the write keeps its own position for its
     * readers instead of being re-based to a position that lacks it.
     */
    @Test
    void aWriteOnTheNewPrimaryAfterTheMonitorReadItsPositionKeepsItsOwn() {
        long asOf = clock.epochMicros();   // read before the position
        clock.advance(Duration.ofMillis(2));
        SessionConsistency writer = causal.newSession();
        writer.committed(write(8_100));   // after the position was read, before the report
        clock.advance(Duration.ofMillis(2));
        causal.primaryChanged(lsn(8_000), lsn(8_000), asOf);
        assertEquals(lsn(8_100), writer.requirement().positionOrNull(), "its own write, not the base");
        assertEquals(lsn(8_100), causal.newSession().requirement().positionOrNull(), "for the unit's readers too");
    }

    @Test
    void aTokenHandedOutBeforeTheFailoverIsReBasedWhenItComesBack() {
        ConsistencyToken cookie = write(9_000);
        clock.advance(Duration.ofSeconds(1));
        causal.primaryChanged(lsn(8_000));
        SessionConsistency session = causal.newSession();
        session.require(cookie);
        assertEquals(lsn(8_000), session.requirement().positionOrNull());
        ConsistencyToken fresh = write(8_200);
        assertSame(fresh, causal.rebased(fresh), "a write on the new primary past the base stands as it is");
    }

    @Test
    void whatReplicasAppliedBeforeTheFailoverIsForgotten() {
        causal.observed(0, lsn(9_000), epochs.current(0));
        causal.observed(1, lsn(8_500), epochs.current(1));
        assertTrue(causal.applied(1, lsn(8_400)));
        causal.primaryChanged(lsn(8_000));
        assertFalse(causal.applied(0, lsn(100)), "replica 0 is known to have applied nothing until it is asked again");
        assertFalse(causal.applied(1, lsn(8_400)));
        causal.observed(1, lsn(8_050), epochs.current(1));
        assertTrue(causal.applied(1, lsn(8_000)));
    }

    @Test
    void aStandbyThatReplayedMoreOfTheOldPrimaryThanTheNewOneHasNeverPassesForCaughtUp() {
        causal.observed(1, lsn(8_400), epochs.current(1)); // replica 1 replayed 8400 of the old primary's log before it died
        causal.primaryChanged(lsn(8_000)); // the new primary forked its timeline off at 8000
        clock.advance(Duration.ofMillis(10));
        SessionConsistency writer = causal.newSession();
        writer.committed(write(8_200)); // a commit on the new timeline, numerically below what replica 1 replayed
        ConsistencyToken need = causal.newSession().requirement();
        causal.observed(1, lsn(8_400), epochs.current(1)); // the stuck standby reports the same position again
        assertFalse(causal.applied(1, need.positionOrNull()), "replica 1 never replayed the new commit at 8200");
        causal.observed(0, lsn(8_401), epochs.current(0)); // a standby that follows the new primary past every position seen
        assertTrue(causal.applied(0, need.positionOrNull()));
    }
}
