package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rwsplit.testing.FakeClock;

class CatchUpEstimatesTest {

    private static final long WAIT = 200_000; // 200 ms
    private final FakeClock clock = new FakeClock();

    @Test
    void aReplicaWithoutLagIsWorthAWait() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 2);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
    }

    @Test
    void aReplicaOneSecondBehindCannotApplyAFreshWriteWithinTheTimeoutButAnOldOne() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 2);
        long committed = clock.epochMicros();
        assertFalse(estimates.canCatchUp(0, 1_000_000, committed));
        clock.advance(Duration.ofMillis(800));
        clock.advance(Duration.ofMillis(1));
        assertTrue(estimates.canCatchUp(0, 1_000_000, committed), "applied at commit + lag, 199 ms from now");
    }

    @Test
    void aRecentTimeoutCountsAsLagForASecond() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 2);
        long committed = clock.epochMicros();
        clock.advance(Duration.ofMillis(200));
        estimates.timedOut(0, committed);
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "no new wait on the replica that just timed out");
        assertTrue(estimates.canCatchUp(1, 0, clock.epochMicros()), "the other replica is not affected");
        clock.advance(Duration.ofMillis(1001));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "forgotten after a second");
    }

    @Test
    void aSuccessfulWaitForgetsTheTimeout() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 1);
        estimates.timedOut(0, clock.epochMicros() - WAIT);
        estimates.caughtUp(0, clock.epochMicros(), true);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
    }

    @Test
    void withWaitingDisabledNoReplicaIsWorthAWait() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, 0, 1);
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros() - 10_000_000));
    }

    @Test
    void aWriteTheReplicaWasSeenToHaveAppliedBeatsTheMeasuredPeakUntilItIsOld() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 2);
        long peak = 2_000_000;      // the probe's peak over its window, still high after the replica caught up
        assertFalse(estimates.canCatchUp(0, peak, clock.epochMicros()));
        estimates.applied(0, clock.epochMicros() - 30_000);   // seen having applied a write committed 30 ms ago
        assertTrue(estimates.canCatchUp(0, peak, clock.epochMicros()), "it keeps up: a fresh write is worth a wait");
        assertFalse(estimates.canCatchUp(1, peak, clock.epochMicros()), "another replica proved nothing");
        clock.advance(Duration.ofMillis(1001));
        assertFalse(estimates.canCatchUp(0, peak, clock.epochMicros()), "old evidence: the measured lag decides again");
    }

    @Test
    void aRecentTimeoutOutweighsEarlierEvidenceOfKeepingUp() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 1);
        estimates.applied(0, clock.epochMicros());
        clock.advance(Duration.ofMillis(300));
        estimates.timedOut(0, clock.epochMicros() - WAIT);
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()));
    }

    @Test
    void aReplicaThatTimedOutOnceGetsOneTrialReadEveryFiftyMillisecondsAndIsWaitedForAgainWhenItKeepsUp() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 1);
        estimates.timedOut(0, clock.epochMicros() - WAIT);     // a stall: one wait ran out
        clock.advance(Duration.ofMillis(10));
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "no trial right after the timeout");
        clock.advance(Duration.ofMillis(40));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "one read tries, 50 ms after the timeout");
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "only one");
        clock.advance(Duration.ofMillis(1));
        estimates.caughtUp(0, clock.epochMicros() - 1_000, false);  // the trial read's wait succeeded at once
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "every read may wait again");
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
    }

    @Test
    void aTrialThatTimesOutTooWaitsFiftyMillisecondsForTheNext() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 1);
        estimates.timedOut(0, clock.epochMicros() - WAIT);
        clock.advance(Duration.ofMillis(50));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "the trial");
        clock.advance(Duration.ofMillis(200));
        estimates.timedOut(0, clock.epochMicros() - WAIT);      // still behind
        clock.advance(Duration.ofMillis(49));
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()));
        clock.advance(Duration.ofMillis(1));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "the next trial");
    }

    @Test
    void aReplicaMeasuredTooFarBehindGetsNoTrial() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 1);
        estimates.timedOut(0, clock.epochMicros() - WAIT);
        clock.advance(Duration.ofMillis(100));
        assertFalse(estimates.canCatchUp(0, 500_000, clock.epochMicros()), "0.5 s behind: a 200 ms wait cannot succeed");
    }

    // ---------------------------------------------------------------- standbys that can only be polled (PostgreSQL 15)

    private CatchUpEstimates polled(int replicas) {
        return polled(replicas, WAIT);
    }

    private CatchUpEstimates polled(int replicas, long waitMicros) {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, waitMicros, replicas);
        estimates.polled(true);
        return estimates;
    }

    /** A wait on replica {@code index} saw a write replayed {@code micros} after its commit, ending now. */
    private void replayedAfter(CatchUpEstimates estimates, int index, long micros) {
        estimates.caughtUp(index, clock.epochMicros() - micros, true);
    }

    /** A read on replica {@code index} found a write committed {@code micros} ago already replayed, at its first look. */
    private void foundReplayed(CatchUpEstimates estimates, int index, long micros) {
        estimates.caughtUp(index, clock.epochMicros() - micros, false);
    }

    @Test
    void lateReadsThatFindOldWritesReplayedDoNotLengthenTheReplayTime() {
        CatchUpEstimates estimates = polled(1, 2_000);   // causal_wait_timeout=2ms
        replayedAfter(estimates, 0, 1_000);
        for (int i = 0; i < 20; i++) {
            foundReplayed(estimates, 0, 30_000);         // a read 30 ms after the last write: replayed long ago
        }
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "still about 1 ms: a fresh write is worth 2 ms");
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "every read, not a trial");
    }

    @Test
    void aWriteFoundReplayedSoonerThanTheEstimateShortensIt() {
        CatchUpEstimates estimates = polled(1, 2_000);
        replayedAfter(estimates, 0, 10_000);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "this interval's trial");
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "10 ms of replay against a 2 ms wait");
        for (int i = 0; i < 20; i++) {
            foundReplayed(estimates, 0, 500);            // replayed within 0.5 ms of its commit
        }
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "proven faster: waited for again");
    }

    @Test
    void aWriteFoundReplayedGivesAnUnknownStandbyAnUpperBound() {
        CatchUpEstimates estimates = polled(1, 2_000);
        foundReplayed(estimates, 0, 800);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "known at most 0.8 ms: every read, not a trial");
    }

    @Test
    void findingWritesReplayedKeepsTheReplayTimeCurrent() {
        CatchUpEstimates estimates = polled(1, 2_000);
        replayedAfter(estimates, 0, 1_000);
        clock.advance(Duration.ofMillis(900));
        foundReplayed(estimates, 0, 30_000);
        clock.advance(Duration.ofMillis(900));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "1.8 s after the wait, 0.9 s after the last look");
    }

    @Test
    void aStandbyThatReplaysInAMillisecondIsWaitedForByEveryRead() {
        CatchUpEstimates estimates = polled(2);
        replayedAfter(estimates, 0, 1_000);
        clock.advance(Duration.ofMillis(5));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "every read, not only a trial");
        assertTrue(estimates.canCatchUp(1, 0, clock.epochMicros()), "the other standby: its trial");
        assertFalse(estimates.canCatchUp(1, 0, clock.epochMicros()), "its replay time is unknown");
    }

    @Test
    void aStandbyWhoseReplayIsUnknownIsNotWaitedForExceptByOneTrialReadPerInterval() {
        CatchUpEstimates estimates = polled(1);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "the trial that learns the replay time");
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "no second read waits on an unknown standby");
        clock.advance(Duration.ofNanos(CatchUpEstimates.TRIAL_NANOS));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "the next trial");
    }

    @Test
    void aStandbyThatReplaysSlowerThanTheTimeoutIsNotWaitedForAFreshWriteButForAnOldOne() {
        CatchUpEstimates estimates = polled(1);
        replayedAfter(estimates, 0, 150_000);
        replayedAfter(estimates, 0, 450_000);   // 150 ms + 300 ms / 4 = 225 ms
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "this interval's trial");
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "225 ms of replay against a 200 ms wait");
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros() - 30_000), "a write 30 ms old is due in 195 ms");
    }

    @Test
    void aReplayTimeOlderThanASecondIsUnknownAgain() {
        CatchUpEstimates estimates = polled(1);
        replayedAfter(estimates, 0, 500);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "known: every read, no trial needed");
        clock.advance(Duration.ofMillis(1_001));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "this interval's trial");
        assertFalse(estimates.canCatchUp(0, 0, clock.epochMicros()), "no recent wait: the replay time is unknown");
    }

    @Test
    void serverSideWaitsNeedNoReplayTime() {
        CatchUpEstimates estimates = new CatchUpEstimates(clock, WAIT, 1);
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()));
        assertTrue(estimates.canCatchUp(0, 0, clock.epochMicros()), "MASTER_GTID_WAIT costs one statement: always worth it");
    }
}
