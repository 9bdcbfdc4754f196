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
     * The write with the furthest known position of those committed since the last failover, here or (learnt from the
     * store) in another instance. A later write whose position could not be read (a commit on a connection that broke,
     * the time rule for readers) takes the position out of {@link #last} but not out of here: the writes before it are
     * still known to need it.
     */
    private final AtomicReference<ConsistencyToken> known = new AtomicReference<>();
    /**
     * The furthest write committed here since the last failover by the first server that wrote one, as its writer shows
     * ({@link GtidPosition#mergeSameWriter}): a write of a primary promoted since, whose promotion is not seen yet,
     * does not replace the old primary's, as it does in {@link #known}. Only positions read for this JVM's own commits
     * go in, as read, never a re-based or merged token (whose writer is a mix).
     */
    private final AtomicReference<ConsistencyToken> firstWriter = new AtomicReference<>();
    /**
     * The last write committed since the last failover whose position could not be read (its connection broke right
     * after the commit), while the primary has not been seen answering since; null when there is none.
     */
    private final AtomicReference<Unconfirmed> unconfirmed = new AtomicReference<>();
    /** How many times {@link #current()} was raised or re-based: a read routed when it was lower is routed again. */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
    /** The base of the last failover ({@link #rebase}): a write committed before it is no write since the failover. */
    private volatile ConsistencyToken base;

    /**
     * A write whose position is unknown: when its position could not be read ({@link io.rwsplit.spi.Clock#nanoTime()})
     * and the commit time of its token.
     */
    record Unconfirmed(long failedAtNanos, long commitMicros) {
    }

    /**
     * The unit's writes since the last failover, as a failover that is seen now may have lost them: the furthest known
     * ({@link #known}), and this JVM's furthest by the first server that wrote ({@link #firstWriter}); either null.
     */
    record Writes(ConsistencyToken furthest, ConsistencyToken firstWriter) {
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
        firstWriter.set(null);
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
     * in another instance), even when a later write's position is unknown; null when none is known.
     */
    ConsistencyToken knownWrite() {
        return known.get();
    }

    /** What a failover seen now may have lost: read before the new primary's position is, so that it holds them. */
    Writes writes() {
        return new Writes(known.get(), firstWriter.get());
    }

    /** A write of the unit committed in another instance, learnt from the store. */
    void committed(ConsistencyToken write) {
        committed(write, null);
    }

    /**
     * A write of the unit committed: {@code write} as reads must see it (re-based after a failover), and
     * {@code captured}, its token as its commit's position was read here (null: learnt from the store).
     */
    void committed(ConsistencyToken write, ConsistencyToken captured) {
        if (write == null) {
            return;
        }
        last.accumulateAndGet(write, Tokens::merge);
        changes.incrementAndGet();
        if (write != base && write.trusted() && write.positionOrNull() != null) {
            known.accumulateAndGet(write, (a, b) -> further(a, b, false));
        }
        ConsistencyToken b = base;
        if (captured != null && captured.trusted() && captured.positionOrNull() != null
                && (b == null || captured.commitTimeMicros() >= b.commitTimeMicros())) {
            // the old primary's writes: a write of a new primary not seen yet (another writer) does not hide them
            firstWriter.accumulateAndGet(captured, (x, y) -> further(x, y, true));
        }
    }

    /**
     * The furthest of {@code a} and {@code b} ({@code sameWriter}: by {@code a}'s writer, {@link GtidPosition#mergeSameWriter}),
     * with the commit time of the write whose position it is (of the later one when it is a mix of both).
     */
    private static ConsistencyToken further(ConsistencyToken a, ConsistencyToken b, boolean sameWriter) {
        if (a == null) {
            return b;
        }
        GtidPosition merged;
        try {
            merged = sameWriter ? a.positionOrNull().mergeSameWriter(b.positionOrNull())
                    : a.positionOrNull().merge(b.positionOrNull());
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return b;   // another kind of server: the later one stands
        }
        return merged.equals(a.positionOrNull()) ? a : merged.equals(b.positionOrNull()) ? b
                : ConsistencyToken.of(merged, Math.max(a.commitTimeMicros(), b.commitTimeMicros()));
    }
}
