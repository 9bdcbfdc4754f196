package io.rwsplit.internal.consistency;

import java.util.concurrent.atomic.LongAdder;

/**
 * What making sure of replica reads cost, for the replicas of one primary ({@link CausalReads}' statistics): reads
 * checked in their own round trip whose check passed, those whose check failed (each read counted once, in one of
 * them, once its outcome is known: their sum is never ahead of either), and the questions put to the replicas (a
 * wait's one statement, a shared poll's asks). Thread-safe; counting is one {@link LongAdder} increment.
 */
final class CheckCounts {

    private final LongAdder passedChecks = new LongAdder();
    private final LongAdder failedChecks = new LongAdder();
    private final LongAdder waitStatements = new LongAdder();
    /** The replicas' shared polls, which count their own asks. */
    private final SharedReplayPoll[] polls;

    CheckCounts(SharedReplayPoll[] polls) {
        this.polls = polls;
    }

    /** A read checked in its own round trip: its check passed, or not. */
    void checked(boolean passed) {
        (passed ? passedChecks : failedChecks).increment();
    }

    /** A wait ran one statement on the replica (a poll counts its own asks). */
    void waitStatement() {
        waitStatements.increment();
    }

    /** Reads checked in their own round trip, passed or failed. */
    long checkedReads() {
        return passedChecks.sum() + failedChecks.sum();
    }

    /** Checked reads whose check failed. */
    long failedChecks() {
        return failedChecks.sum();
    }

    /** Questions put to the replicas about what they applied: the waits' statements and the polls' asks. */
    long positionQueries() {
        long asks = waitStatements.sum();
        for (SharedReplayPoll poll : polls) {
            asks += poll.asks();
        }
        return asks;
    }
}
