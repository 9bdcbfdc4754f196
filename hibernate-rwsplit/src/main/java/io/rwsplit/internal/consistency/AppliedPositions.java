package io.rwsplit.internal.consistency;

import java.util.concurrent.atomic.AtomicReferenceArray;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.GtidPosition;

/**
 * What each replica of one primary is known to have applied ({@link CausalReads}' board): a position learned from the
 * replica (a successful wait, a read checked in its own round trip, the health monitor) with the replica's epoch when
 * it was asked, true only while that epoch is the replica's current one. Thread-safe and lock-free: a replica's slot
 * is replaced by compare-and-set; {@link #has} reads one volatile array slot.
 */
final class AppliedPositions {

    /** A replica's applied position, true only while {@code epoch} is the replica's current epoch. */
    private record Learned(GtidPosition position, long epoch) {
    }

    /** Per replica: the position it is known to have applied, and the epoch of the replica it was learned from. */
    private final AtomicReferenceArray<Learned> applied;
    private final ServerEpochs epochs;

    /** @param epochs the replicas' epochs: a position learned from a replica is forgotten with its epoch */
    AppliedPositions(ServerEpochs epochs) {
        this.epochs = epochs;
        this.applied = new AtomicReferenceArray<>(epochs.size());
    }

    /**
     * Whether replica {@code index} is known to have applied {@code need}: learned from the replica as it is now
     * (its epoch has not changed since), never from before a restart or a lost connection.
     */
    boolean has(int index, GtidPosition need) {
        Learned known = applied.get(index);
        try {
            return known != null && epochs.isCurrent(index, known.epoch) && known.position.contains(need);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return false;
        }
    }

    /**
     * Replica {@code index} has applied {@code position}, as learned in {@code epoch} (read before asking the replica):
     * merged into what it is known to have applied in that epoch, replacing what an older epoch said; ignored when the
     * replica's epoch has changed since. Whether what it is known to have applied grew.
     */
    boolean learn(int index, GtidPosition position, long epoch) {
        while (epochs.isCurrent(index, epoch)) {
            Learned known = applied.get(index);
            Learned next;
            if (known == null || known.epoch != epoch) {
                next = new Learned(position, epoch);    // what an older epoch said no longer counts
            }
            else {
                try {
                    GtidPosition merged = known.position.merge(position);
                    if (merged.equals(known.position)) {
                        return false;
                    }
                    next = new Learned(merged, epoch);
                }
                catch (IllegalArgumentException flavoursDiffer) {
                    next = new Learned(position, epoch);
                }
            }
            if (applied.compareAndSet(index, known, next)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A failover: forgets what every replica was known to have applied, and every replica's epoch (what each told is
     * about the old primary's history). Returns {@code base} raised past every position forgotten (see
     * {@link #beyond}); {@code base} itself when none was past it.
     */
    GtidPosition forgetAll(GtidPosition base) {
        GtidPosition position = base;
        for (int i = 0; i < applied.length(); i++) {
            Learned known = applied.getAndSet(i, null);
            position = beyond(position, known == null ? null : known.position());
            epochs.forget(i);
        }
        return position;
    }

    /** {@code known} merged with every position a replica was reported to have applied; null when none is known. */
    GtidPosition furthest(GtidPosition known) {
        for (int i = 0; i < applied.length(); i++) {
            Learned l = applied.get(i);
            known = merged(known, l == null ? null : l.position());
        }
        return known;
    }

    /**
     * {@code base} raised past {@code replicaSaw}, a position a replica reported before the failover: a standby
     * that replayed more of the old primary's log than the new primary received has left its history (it cannot
     * follow the new primary until it is rebuilt), and positions are numbers that the new primary will reuse.
     * Requiring more than any replica had seen keeps such a standby from passing for caught up.
     */
    private static GtidPosition beyond(GtidPosition base, GtidPosition replicaSaw) {
        if (base == null || replicaSaw == null || base.contains(replicaSaw)) {
            return base;
        }
        try {
            return base.merge(replicaSaw);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return base;
        }
    }

    /** Both merged; either when the other is null; {@code a} when their flavours differ. */
    static GtidPosition merged(GtidPosition a, GtidPosition b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        try {
            return a.merge(b);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return a;
        }
    }
}
