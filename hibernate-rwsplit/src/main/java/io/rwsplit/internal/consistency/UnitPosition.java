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
    private final AtomicReference<ConsistencyToken> known = new AtomicReference<>();
    /**
     * The last write committed since the last failover whose position could not be read (its connection broke right
     * after the commit), while the primary has not been seen answering since; null when there is none.
     */
    private final AtomicReference<Unconfirmed> unconfirmed = new AtomicReference<>();
    /** How many times {@link #current()} was raised or re-based: a read routed when it was lower is routed again. */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
    /**
     * The base of the last failover ({@link #rebase}): what writes committed before it require, which is no write of
     * its own and never goes into {@link #known} (on MariaDB it may carry the old primary's server id, which would
     * then hold back every later write of the new primary there).
     */
    private volatile ConsistencyToken base;

    /**
     * A write whose position is unknown: when its position could not be read ({@link io.rwsplit.spi.Clock#nanoTime()})
     * and the commit time of its token.
     */
    record Unconfirmed(long failedAtNanos, long commitMicros) {
    }

    /** What a read that begins now must see, or {@code null} when the unit has not written yet. */
    ConsistencyToken current() {
        return last.get();
    }

    /** How many times what a read must see changed ({@link #committed}, {@link #rebase}); one volatile read. */
    long changes() {
        return changes.get();
    }

    /**
     * A failover: writes committed before {@code base} (what the new primary had when it was seen) now require
     * {@code base}; those committed on the new primary since are kept.
     */
    void rebase(ConsistencyToken base) {
        this.base = base;
        last.updateAndGet(t -> t == null || t.commitTimeMicros() < base.commitTimeMicros() ? base : Tokens.merge(t, base));
        changes.incrementAndGet();
        known.set(null);
        unconfirmed.set(null);
    }

    /**
     * A write committed (the server acknowledged it) whose position could not be read afterwards, noticed at
     * {@code failedAtNanos}; its token's commit time is {@code commitMicros}. Until the primary is seen answering
     * again, a failover cannot tell whether the write survived it.
     */
    void unconfirmed(long failedAtNanos, long commitMicros) {
        unconfirmed.set(new Unconfirmed(failedAtNanos, commitMicros));
    }

    /**
     * The primary answered on a connection obtained at {@code askedAtNanos}: a write whose position could not be read
     * before that moment was not lost in a crash of the primary as it acknowledged it (the primary outlived it, and
     * replicas receive what it committed as it goes on).
     */
    void primaryAnswered(long askedAtNanos) {
        Unconfirmed u = unconfirmed.get();
        if (u != null && askedAtNanos - u.failedAtNanos() >= 0) {
            unconfirmed.compareAndSet(u, null);
        }
    }

    /** The last write whose position could not be read while the primary has not answered since, or null. */
    Unconfirmed unconfirmed() {
        return unconfirmed.get();
    }

    /**
     * The write with the furthest position of those committed since the last failover (here or, learnt from the store,
     * in another instance), even when a later write's position is unknown; null when none is known. Of the old
     * primary's writes: a later write of another server (a new primary not seen yet) does not replace it.
     */
    ConsistencyToken knownWrite() {
        return known.get();
    }

    /** A write of the unit committed (here or, learnt from the store, in another instance). */
    void committed(ConsistencyToken write) {
        if (write != null) {
            last.accumulateAndGet(write, Tokens::merge);
            changes.incrementAndGet();
            if (write != base && write.trusted() && write.positionOrNull() != null) {
                // the old primary's writes: a write of a new primary not seen yet (another writer) does not hide them
                known.accumulateAndGet(write, UnitPosition::further);
            }
        }
    }

    /** The furthest of {@code a} and {@code b} by the same writer ({@link GtidPosition#mergeSameWriter}), with its time. */
    private static ConsistencyToken further(ConsistencyToken a, ConsistencyToken b) {
        if (a == null) {
            return b;
        }
        GtidPosition merged;
        try {
            merged = a.positionOrNull().mergeSameWriter(b.positionOrNull());
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return b;   // another kind of server: the later one stands
        }
        return merged == a.positionOrNull() ? a : merged == b.positionOrNull() ? b
                : ConsistencyToken.of(merged, Math.max(a.commitTimeMicros(), b.commitTimeMicros()));
    }
}
