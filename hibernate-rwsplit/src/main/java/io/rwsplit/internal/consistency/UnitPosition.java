package io.rwsplit.internal.consistency;

import java.util.concurrent.atomic.AtomicReference;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;

/**
 * The last committed position of a persistence unit's writes to one primary, in this JVM: one merged token,
 * replaced (never locked) on every commit and read with one volatile read on the routing path.
 */
final class UnitPosition {

    private final AtomicReference<ConsistencyToken> last = new AtomicReference<>();

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
    }

    /** A write of the unit committed (here or, learnt from the store, in another instance). */
    void committed(ConsistencyToken write) {
        if (write != null) {
            last.accumulateAndGet(write, Tokens::merge);
        }
    }
}
