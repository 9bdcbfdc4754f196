package io.rwsplit.internal.consistency;

import java.util.concurrent.atomic.AtomicReference;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.position.Tokens;

/**
 * The last committed position of a persistence unit's writes to one primary, in this JVM: one merged token,
 * replaced (never locked) on every commit and read with one volatile read on the routing path; and the furthest
 * position a committed write is known to have, for telling a lost write at a failover.
 */
final class UnitPosition {

    private final AtomicReference<ConsistencyToken> last = new AtomicReference<>();
    /**
     * The furthest known position of a write committed since the last failover. A later write whose position could
     * not be read (a commit on a connection that broke, the time rule for readers) takes the position out of
     * {@link #last} but not out of here: the writes before it are still known to need it.
     */
    private final AtomicReference<GtidPosition> known = new AtomicReference<>();

    /** What a read that begins now must see, or {@code null} when the unit has not written yet. */
    ConsistencyToken current() {
        return last.get();
    }

    /**
     * A failover: writes committed before {@code base} (what the new primary had when it was seen) now require
     * {@code base}; those committed on the new primary since are kept.
     */
    void rebase(ConsistencyToken base) {
        last.updateAndGet(t -> t == null || t.commitTimeMicros() < base.commitTimeMicros() ? base : Tokens.merge(t, base));
        known.set(null);
    }

    /**
     * The furthest position a write committed since the last failover (here or, learnt from the store, in another
     * instance) is known to have, even when a later write's position is unknown; null when none is known.
     */
    GtidPosition knownWrite() {
        return known.get();
    }

    /** A write of the unit committed (here or, learnt from the store, in another instance). */
    void committed(ConsistencyToken write) {
        if (write != null) {
            last.accumulateAndGet(write, Tokens::merge);
            GtidPosition p = write.trusted() ? write.positionOrNull() : null;
            if (p != null) {
                known.accumulateAndGet(p, UnitPosition::further);
            }
        }
    }

    private static GtidPosition further(GtidPosition a, GtidPosition b) {
        if (a == null) {
            return b;
        }
        try {
            return a.merge(b);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return b;   // another kind of server: the later one stands
        }
    }
}
