package io.rwsplit.internal.consistency;

/**
 * What a wait for a position on a replica found. The difference between the two successes matters to the replay-time
 * estimate ({@link CatchUpEstimates}): a position found applied at the first look proves only that the replica replayed
 * it at most that long after its commit (a read that comes late sees an old write replayed, whatever the replay took),
 * while one that had to be waited for was replayed about then.
 */
enum WaitResult {
    /** Not applied within the timeout (or the server could not wait: not a standby any more). */
    NOT_APPLIED,
    /** Applied already: the first look (a known position or the first question) found it. */
    ALREADY_APPLIED,
    /** Applied while the read waited for it. */
    APPLIED_AFTER_WAITING;

    boolean applied() {
        return this != NOT_APPLIED;
    }
}
