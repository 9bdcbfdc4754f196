package io.rwsplit.internal.consistency;

import java.time.Instant;

import io.rwsplit.position.GtidPosition;

/**
 * A write a read required that a failover of the primary lost, or may have lost: its position when the module read
 * it, else null (the connection broke as the old primary acknowledged the commit, and the old primary was not seen
 * again), with the commit time of its token.
 *
 * @param position      the lost write's position (GTID or LSN), or null when it could not be read
 * @param commitMicros  when it committed, as its token says
 * @param failover      which failover lost it (1 for the first that lost a write, 2 for the second, ...)
 */
public record LostWrite(GtidPosition position, long commitMicros, long failover) {

    /** Whether the new primary is known not to hold the write (its position was read); else it may be lost. */
    public boolean certain() {
        return position != null;
    }

    /** The position's text, or a description of a write whose position is unknown. */
    public String describe() {
        return position != null ? position.toString()
                : "committed at " + Instant.EPOCH.plusNanos(commitMicros * 1000) + ", position unread";
    }
}
