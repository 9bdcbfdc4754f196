package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.CausalReasons;
import io.rwsplit.internal.consistency.LostWrite;
import io.rwsplit.internal.consistency.SessionConsistency;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;

/**
 * The session's consistency level between the policy and the replicas: a read the {@link RoutePolicy} gated
 * goes to any replica (eventual, nothing to honour), to a replica that has applied the scope's last write
 * (found through {@link ReplicaSet#choose(ReplicaSet.Requirement)}, else made to wait), to one within a
 * staleness bound, or to the primary, with the reason. It also captures the position of a committed write
 * for read-your-writes (the {@link TransactionTracker} says when). One per logical connection.
 */
final class ConsistencyGate implements TransactionTracker.WriteRecorder {

    private final Router router;
    /** Whom the connection serves ({@link Served#session}: the session whose consistency level applies). */
    private final Served served;
    private PhysicalConnections physical;
    private ReplicaConnection replica;
    /**
     * Whether the statement being routed may be checked in its own round trip instead of asking its replica first (a
     * prepared autocommit read: {@link ConnectionRouting#prepare}); reset by {@link #takeCheck}.
     */
    private boolean checkable;
    /** What the statement being routed must be checked against, when the gate chose that over asking; else null. */
    private ConsistencyToken check;

    ConsistencyGate(Router router, Served served) {
        this.router = router;
        this.served = served;
    }

    /** Serves the next session ({@link Served}), as a new gate would. */
    void serve() {
        checkable = false;
        check = null;
    }

    /** The physical connections it opens a suitable replica on (they need the tracker, which needs this gate). */
    void connections(PhysicalConnections physical) {
        this.physical = physical;
        this.replica = physical.replica();
    }

    /**
     * The session's consistency level applied to a read that may go to a replica (an autocommit read, a
     * replica hint, the first read of a read-only transaction): {@code replicaReason} when any replica will do,
     * a causal replica reason (the replica connection is then open and has applied the scope's last write), or
     * a primary reason. Cheap when the scope has no write to honour: a field read and a null check.
     */
    RouteReason read(RouteReason replicaReason, boolean inTransaction) throws SQLException {
        return read(replicaReason, inTransaction, null);
    }

    /** As {@link #read(RouteReason, boolean)}, at {@code level} (a rule's) instead of the session's when not null. */
    RouteReason read(RouteReason replicaReason, boolean inTransaction, Consistency level) throws SQLException {
        SessionRouting session = served.session;
        boolean tracks = session.tracksConsistency();
        if (!tracks && level == null) {
            return replicaReason;
        }
        if (level == null) {
            level = session.consistencyLevel();
        }
        switch (level.level()) {
            case EVENTUAL:
                return replicaReason;
            case STRONG:
                return RouteReason.STRONG_CONSISTENCY;
            case BOUNDED_STALENESS:
                return boundedStalenessRead(level.boundMicros(), inTransaction);
            default:
                break;
        }
        if (!tracks) {
            return replicaReason;   // no read-your-writes here (no positions to honour)
        }
        // through the session: its first read at the defaults makes no consistency state
        ConsistencyToken need = session.requirement();
        LostWrite lost = session.takeLostWrite();
        if (lost != null && router.causal().lostWriteRead(lost)) {
            throw new io.rwsplit.LostWriteException("hibernate-rwsplit [" + router.label() + "]: this read must see a"
                    + " write (" + lost.describe() + ") that " + (lost.certain()
                    ? "was lost in a failover of the primary: the old primary acknowledged it before any replica had it,"
                    + " and the new primary does not have it."
                    : "may have been lost in a failover of the primary: the old primary acknowledged it and went away"
                    + " before its position could be read, so whether the new primary has it is unknown.")
                    + " This session, scope or token learns it once; its next reads see the new primary's data (setting '"
                    + io.rwsplit.RwSplitSettings.LOST_WRITES + "=log' reads them at once instead)",
                    lost.certain() ? lost.position().toString() : null);
        }
        if (need != null && !need.trusted()) {
            return RouteReason.UNTRUSTED_TOKEN_PRIMARY;
        }
        CausalReasons reasons = session.reasons();
        if (session.stateUnknown()) {
            return reasons.windowPrimary();
        }
        if (need == null) {
            return replicaReason;
        }
        CausalReads causal = router.causal();
        if (!causal.byGtid(need)) {
            // while a failover may be under way the replicas' lag figures are frozen (no new marks): the window
            // proves nothing then, and the requirement waits on the primary for the re-base, which replaces it
            if (causal.withinWindow(need) || router.primarySuspect()) {
                return reasons.windowPrimary();
            }
            session.settled(need);
            return replicaReason;
        }
        if (router.primarySuspect()) {
            // a failover may be under way: a replica that follows a new primary reports positions of the new
            // history, which can pass the write's position without containing it (a PostgreSQL timeline, a MariaDB
            // domain's sequence numbers); the read goes to the primary, where it waits for the monitor's look at the
            // server behind the primary URL, which re-bases what reads must see and tells a write the failover lost
            return reasons.behind();
        }
        GtidPosition position = need.positionOrNull();
        boolean worthWaiting = false;   // the replica was chosen just now because it can catch up
        if (replica.connection() == null) {
            ReplicaSet set = router.replicas();
            if (set.candidates().isEmpty()) {
                // no healthy replica: connect() falls back as for any read, without a second look that could find
                // one back in rotation, unchecked
                replica.foundNone(inTransaction);
                return replicaReason;
            }
            // a replica known to have applied the write, balanced among those that have
            ReplicaNode caughtUp = set.choose(node -> causal.applied(node.index(), position), replica.tier());
            if (caughtUp != null && replica.open(caughtUp) != null) {
                if (causal.applied(caughtUp.index(), position)) {
                    return reasons.caughtUp();
                }
                // opening it found that it restarted since: what it applied is asked again below
                return caughtUpAfterRestart(caughtUp, need, reasons);
            }
            // else one that can apply it within the wait timeout, balanced among those; none: no wait
            ReplicaNode chosen = set.choose(node -> causal.canCatchUp(node.index(), node.lagMicros(), need), replica.tier());
            if (chosen == null) {
                return reasons.behind();
            }
            if (replica.open(chosen) == null && replica.serve(inTransaction) == null) {
                return replicaReason;
            }
            // asked once: a second question would refuse the trial read the first one granted
            worthWaiting = replica.node() == chosen;
        }
        ReplicaNode replicaNode = replica.node();
        if (causal.applied(replicaNode.index(), position)) {
            return reasons.caughtUp();
        }
        if (!worthWaiting && !causal.canCatchUp(replicaNode.index(), replicaNode.lagMicros(), need)) {
            return reasons.behind();
        }
        if (checkable && !inTransaction && causal.checksInRead(replica.connection())) {
            // most such reads find the write replayed: asking first would cost a round trip each (see checkedInRead)
            check = need;
            return reasons.waited();
        }
        return causal.await(replica.connection(), replicaNode.index(), need, false) ? reasons.waited() : reasons.timedOut();
    }

    /** The statement about to be routed is a prepared autocommit read that may be checked in its own round trip. */
    void checkable() {
        checkable = true;
    }

    /**
     * What the statement just routed must be checked against in its own round trip
     * ({@link CausalReads#checkedInRead(String)}), or null: it needs no check (it was asked, or needs nothing). Ends
     * what {@link #checkable()} allowed.
     */
    ConsistencyToken takeCheck() {
        ConsistencyToken taken = check;
        check = null;
        checkable = false;
        return taken;
    }

    /** Whether the statement being routed will be checked in its own round trip (its record waits for the check). */
    boolean checkPending() {
        return check != null;
    }

    /**
     * A read checked in its own round trip on {@code node} found it without {@code need} ({@code checked}), or cannot be
     * run checked (a stream parameter, {@code getMetaData()}, a batch, an error that lost the check's answer): when
     * {@code wait}, it waits there as any read does (asks, then shares the standby's poll, until the wait timeout; after
     * a failed check, which was the question, it shares the poll at once). Whether it stays there; else it goes to the
     * primary, for {@link #timedOut()}.
     */
    boolean settleCheck(ReplicaNode node, ConsistencyToken need, boolean wait, boolean checked) throws SQLException {
        if (!wait || node == null || replica.node() != node) {
            return false;
        }
        CausalReads causal = router.causal();
        return causal.await(replica.connection(), node.index(), need, checked);
    }

    /** Why a read that could not be made sure of on its replica goes to the primary: the scope's wait timed out. */
    RouteReason timedOut() {
        return served.session.tracksConsistency() ? served.session.reasons().timedOut() : RouteReason.RETRY_PRIMARY;
    }

    /**
     * Whether the session's gated reads must see a write's exact position (read-your-writes with a GTID or LSN to
     * honour). While a failover may be under way such a read that lost the primary waits for the monitor to see the
     * server behind the primary URL: a new primary may lack the write, which only that look tells
     * ({@link CausalReads#primaryChanged}), and the read then fails with {@link io.rwsplit.LostWriteException}
     * instead of answering older than the write. Also true while such a failure waits for the session's next read
     * (the look noted the loss). At {@code level} (a rule's) instead of the session's when not null.
     */
    boolean needsPosition(Consistency level) {
        if (!served.session.tracksConsistency()) {
            return false;
        }
        Consistency applied = level != null ? level : served.session.consistencyLevel();
        if (applied.level() != Consistency.Level.READ_YOUR_WRITES) {
            return false;
        }
        ConsistencyToken need = served.session.requirement();
        // a loss noted just now (the re-based requirement may have no position left): the gate reports it next
        return need != null && need.positionOrNull() != null || served.session.lostWritePending();
    }

    /** The open replica connection's server restarted since it was known to have applied {@code need}: it waits. */
    private RouteReason caughtUpAfterRestart(ReplicaNode node, ConsistencyToken need, CausalReasons reasons)
            throws SQLException {
        return router.causal().await(replica.connection(), node.index(), need, false) ? reasons.waited() : reasons.timedOut();
    }

    /** A replica whose last measured lag is within the bound (balanced among those that are), else the primary. */
    private RouteReason boundedStalenessRead(long boundMicros, boolean inTransaction) throws SQLException {
        if (replica.connection() == null) {
            ReplicaSet set = router.replicas();
            if (set.candidates().isEmpty()) {
                replica.foundNone(inTransaction);   // no healthy replica: connect() falls back, without a second look
                return RouteReason.BOUNDED_STALENESS_REPLICA;
            }
            ReplicaNode chosen = set.choose(node -> node.lagMicros() <= boundMicros, replica.tier());
            if (chosen == null) {
                return RouteReason.STALENESS_BOUND_PRIMARY;
            }
            if (replica.open(chosen) == null && replica.serve(inTransaction) == null) {
                return RouteReason.BOUNDED_STALENESS_REPLICA;
            }
        }
        return replica.node().lagMicros() <= boundMicros ? RouteReason.BOUNDED_STALENESS_REPLICA
                : RouteReason.STALENESS_BOUND_PRIMARY;
    }

    /** Records the write(s) the primary connection committed, for read-your-writes of the session's scope. */
    @Override
    public void recordCommittedWrite(boolean justCommitted) {
        Connection primary = physical.openPrimary();
        if (primary != null) {
            served.session.consistency().committed(captureCommit(primary, justCommitted));
        }
    }

    /**
     * A JTA transaction that wrote through this connection, released before it completed, has committed: its position
     * is the primary's now, read on another connection (at or after the commit); when none can be had, its readers use
     * the time window.
     */
    @Override
    public void recordExternalCommit() {
        SessionConsistency consistency = served.session.consistency();
        if (consistency == null) {
            return;
        }
        try {
            Connection other = router.primary().acquire();
            try {
                consistency.committed(router.causal().captureElsewhere(other, router.commitCaptureFailed()));
            }
            finally {
                router.primary().release(other);
            }
        }
        catch (SQLException | RuntimeException e) {
            router.commitCaptureFailed().accept(e);
            consistency.committed(router.causal().unconfirmedCommit(e));
        }
    }

    /**
     * Commits the primary connection's transaction, which wrote, and records its position for read-your-writes in the
     * same round trip where the server allows it (PostgreSQL); {@code false} when it does not (nothing committed yet: the
     * caller commits as usual). Throws what the commit threw.
     */
    boolean commitRecordingWrite(Connection primary) throws SQLException {
        SessionConsistency consistency = served.session.consistency();
        if (consistency == null || !router.causal().commitsWithPosition(primary)) {
            return false;
        }
        ConsistencyToken write = router.causal().commitCapturing(primary, router.commitCaptureFailed());
        if (write != null) {
            consistency.committed(write);
        }
        return true;
    }

    /**
     * The token of what the primary connection committed: read on that connection, or, when the pool has
     * already taken it back (a JTA pool does so when the transaction completes), on a fresh one.
     */
    private ConsistencyToken captureCommit(Connection primary, boolean justCommitted) {
        try {
            if (!primary.isClosed()) {
                return justCommitted ? router.causal().captureAfterCommit(primary, router.commitCaptureFailed())
                        : router.causal().capture(primary, router.commitCaptureFailed());
            }
            Connection other = router.primary().acquire();
            try {
                return router.causal().captureElsewhere(other, router.commitCaptureFailed());
            }
            finally {
                router.primary().release(other);
            }
        }
        catch (SQLException e) {
            router.commitCaptureFailed().accept(e);
            return router.causal().capture(primary); // reports the failure once and falls back to the time window
        }
    }
}
