package io.rwsplit.internal.consistency;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;

/**
 * Writes lost in failovers of the primary, for the replicas of one primary: what the last failover that lost the
 * unit's last committed write lost (a later one that lost nothing leaves it), who has been told of it since, and the
 * counts. Thread-safe; a read asks one volatile field when no failover lost anything.
 *
 * <p>Writes are lost when the new primary does not hold the unit's last committed write (replication is
 * asynchronous: the old primary acknowledged it before any replica had it). What the new primary holds of the old
 * primary's history is what it replicated before its promotion ({@code @@gtid_slave_pos} on MariaDB, the
 * GTID set on MySQL, {@code pg_last_wal_replay_lsn()} on PostgreSQL: the switch point of its new timeline), read by
 * the monitor when it first sees it; without it (a server that never replicated, or a PostgreSQL primary restarted
 * since) its position at that moment, where its own later writes can hide a loss, never invent one.
 */
final class LostWrites {

    /**
     * What a failover lost: its number (among those that lost a write), what the new primary held of the old one's
     * history and its position when it was seen (its own writes since its promotion are in it), when it was seen, the
     * unit's write it is known to have lost (null: none known), the commit time of a write of this unit whose position
     * was never read and may be lost (0: none), and who learned it since.
     */
    private record Failover(long id, GtidPosition survived, GtidPosition newPrimary, long failoverMicros,
                            ConsistencyToken lost, long unconfirmedMicros, ConcurrentHashMap<String, Boolean> told) {
    }

    private final String label;
    private final LostWriteReads mode;
    private final AtomicLong failovers = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    /**
     * What the last failover that lost a write lost, or null when none did: a later failover that lost nothing keeps
     * it (a write it lost stays lost), one that lost a write replaces it.
     */
    private volatile Failover last;

    LostWrites(String label, LostWriteReads mode) {
        this.label = label;
        this.mode = mode;
    }

    /**
     * A failover was seen at {@code nowMicros}: the new primary holds {@code survived} of the old one's history, and
     * stands at {@code newPrimary} (null: unknown), which holds its own writes since its promotion, also those of this
     * unit committed there before the failover was seen (a multi-host URL leads there at once): they are not lost
     * ({@link GtidPosition#holdsAfterPromotion}); {@code wrote} the unit's writes since the last failover, taken
     * before {@code newPrimary} was read; {@code unconfirmed} the last write whose position could not be read, the old
     * primary not seen answering since (null: none). A write known to be missing, or one that may be, is counted and
     * logged once at ERROR.
     */
    void failover(GtidPosition survived, GtidPosition newPrimary, UnitPosition.Writes wrote,
                  UnitPosition.Unconfirmed unconfirmed, long nowMicros) {
        ConsistencyToken missing = survived == null ? null : missing(survived, newPrimary, wrote.firstWriter());
        if (missing == null && survived != null) {
            missing = missing(survived, newPrimary, wrote.furthest());
        }
        boolean known = missing != null;
        if (!known && unconfirmed == null) {
            return;
        }
        long id = failovers.incrementAndGet();
        if (known) {
            ConsistencyRuntime.log.error("hibernate-rwsplit [{}]: writes were lost in a failover of the primary: the new"
                    + " primary holds the old primary's writes up to {} and does not have this unit's last committed"
                    + " write {} (acknowledged by the old primary before a replica had it: asynchronous replication);"
                    + " what was written then is not in the database any more", label, survived, missing.positionOrNull());
        }
        else {
            ConsistencyRuntime.log.error("hibernate-rwsplit [{}]: writes may have been lost in a failover of the"
                    + " primary: the old primary acknowledged a commit of this unit at {} and its connection broke before the"
                    + " commit's position could be read; the old primary was not seen again, so whether the new primary"
                    + " (holding the old one's writes up to {}) has it is unknown (asynchronous replication loses what no"
                    + " replica had yet); reads that require it are told", label,
                    java.time.Instant.EPOCH.plusNanos(unconfirmed.commitMicros() * 1000), survived);
        }
        // published once, before the caller's re-base: a read that sees the re-base sees this
        last = new Failover(id, survived, newPrimary, nowMicros, missing,
                unconfirmed == null ? 0 : unconfirmed.commitMicros(),
                new ConcurrentHashMap<>());
    }

    /**
     * The write that {@code need} requires and the last failover that lost a write lost (or, its position never read,
     * may have lost), if {@code who} has not been told of it since (null {@code who}: the caller forgets {@code need} once told, as a
     * session's own requirement does); else null.
     *
     * @param who what learns it once: a scope's key, {@code "token"} for a token handed in, or null
     */
    LostWrite lostWrite(ConsistencyToken need, String who) {
        if (need == null) {
            return null;
        }
        Failover l = last;
        if (l == null || need.commitTimeMicros() >= l.failoverMicros()) {
            return null;
        }
        GtidPosition own = need.positionOrNull();
        LostWrite lost;
        if (own != null) {
            if (l.survived() == null) {
                return null;
            }
            if (!holds(l.survived(), l.newPrimary(), own)) {
                lost = new LostWrite(own, need.commitTimeMicros(), l.id());
            }
            else if (l.lost() != null && need.commitTimeMicros() >= l.lost().commitTimeMicros()
                    && !holds(l.survived(), null, own)) {
                // a write of the new primary's own, committed after the unit's lost write: a requirement merged from
                // both keeps only the later one's position, so one that reached it is told of the lost write (also a
                // requirement that never had it: they cannot be told apart)
                lost = new LostWrite(l.lost().positionOrNull(), l.lost().commitTimeMicros(), l.id());
            }
            else {
                return null;
            }
        }
        else if (l.unconfirmedMicros() != 0 && need.commitTimeMicros() >= l.unconfirmedMicros()) {
            // a token without a position that is as late as the unconfirmed write: it stands for that write or a later one
            lost = new LostWrite(null, l.unconfirmedMicros(), l.id());
        }
        else {
            return null;
        }
        return who == null || l.told().putIfAbsent(who + " " + lost.describe(), Boolean.TRUE) == null ? lost : null;
    }

    /**
     * A read had to see {@code lost}: counted; true when it must fail ({@code lost_writes=fail}), else logged at WARN
     * and it reads the new primary's data.
     */
    boolean read(LostWrite lost) {
        reads.incrementAndGet();
        if (mode == LostWriteReads.FAIL) {
            return true;
        }
        ConsistencyRuntime.log.warn("hibernate-rwsplit [{}]: a read that had to see write {}, {} in a failover of the"
                + " primary, reads the new primary's data (lost_writes=log)", label, lost.describe(),
                lost.certain() ? "lost" : "perhaps lost");
        return false;
    }

    /** Failovers whose new primary did not have the unit's last committed write. */
    long lostWriteFailovers() {
        return failovers.get();
    }

    /** Reads that had to see a lost write. */
    long lostWriteReads() {
        return reads.get();
    }

    /** {@code write} when a new primary at {@code newPrimary} that replicated {@code survived} lacks it, else null. */
    private static ConsistencyToken missing(GtidPosition survived, GtidPosition newPrimary, ConsistencyToken write) {
        return write == null || holds(survived, newPrimary, write.positionOrNull()) ? null : write;
    }

    /** Whether a new primary at {@code newPrimary} (null: unknown) that replicated {@code survived} holds {@code write}. */
    private static boolean holds(GtidPosition survived, GtidPosition newPrimary, GtidPosition write) {
        try {
            return newPrimary == null ? survived.contains(write) : newPrimary.holdsAfterPromotion(survived, write);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return true;   // another kind of server: nothing to compare, nothing reported
        }
    }
}
