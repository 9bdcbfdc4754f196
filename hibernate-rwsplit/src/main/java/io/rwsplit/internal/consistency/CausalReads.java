package io.rwsplit.internal.consistency;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;

import io.rwsplit.Consistency;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.position.Tokens;

/**
 * Consistency for the replicas of one primary: captures the position of committed writes ({@link CommitCapture}),
 * knows which replica applied which position ({@link AppliedPositions}: from successful waits, and from the health
 * monitor through {@link #observed}) and makes a replica wait. Thread-safe; the routing path reads one volatile array
 * slot.
 */
public final class CausalReads implements io.rwsplit.internal.stats.ConsistencyCounts {

    private final ConsistencyRuntime runtime;
    private final String keyPrefix;
    private final String unitKey;
    /** Per replica: the position it is known to have applied, and the epoch of the replica it was learned from. */
    private final AppliedPositions applied;
    private final ServerEpochs epochs;
    private final String label;
    /** The unit's last committed position in this JVM (also with consistency_scope=session, where reads ignore it). */
    private final UnitPosition unit;
    /** Whether sessions without a named scope honour the unit's writes ({@code consistency_scope=unit}). */
    private final boolean unitWide;
    /** See {@link #firstReadWithoutState()}. */
    private final boolean firstReadWithoutState;
    private final CatchUpEstimates catchUp;
    /** Per replica: the poll that the reads waiting on it share (PostgreSQL standbys without WAIT FOR LSN). */
    private final SharedReplayPoll[] polls;
    private volatile GtidFlavour flavour;
    /** Reads the positions of committed writes into their tokens. */
    private final CommitCapture commits;
    /** What the new primary had when the last failover was seen (its commit time: then), or null: no failover. */
    private volatile ConsistencyToken rebase;
    private final LostWrites lostWrites;
    private final TokenTrust tokens;
    /** Reads checked in their own round trip (passed, failed) and questions put to the replicas: the statistics. */
    private final CheckCounts counts;
    /** Whether reads may be checked in their own round trip ({@link #checksInRead}); off once replica reads are not READ COMMITTED. */
    private volatile boolean checkInRead = true;

    /**
     * @param label  the router's label (tenant), so scopes of different primaries never mix in a shared store
     * @param epochs the replicas' epochs: a position learned from a replica is forgotten with its epoch
     */
    public CausalReads(ConsistencyRuntime runtime, String label, ServerEpochs epochs) {
        int replicas = epochs.size();
        this.epochs = epochs;
        this.runtime = runtime;
        this.label = label;
        this.keyPrefix = label + ":";
        // a named scope's key always has a ':' after the label, so this key never collides with one
        this.unitKey = "unit/" + runtime.config().unitName() + "/" + label;
        this.applied = new AppliedPositions(epochs);
        // kept under every scope: the lost-write check and the stale-read audit compare with it
        this.unit = new UnitPosition();
        this.commits = new CommitCapture(runtime, unit, label, this::flavour);
        this.unitWide = runtime.config().scope() == ConsistencyScope.UNIT;
        this.firstReadWithoutState = unitWide && runtime.config().scopeResolver() == null && !runtime.sharedStore();
        this.lostWrites = new LostWrites(label, runtime.config().lostWrites());
        this.tokens = new TokenTrust(runtime.config().tokenSecret(), runtime.clock(), runtime.config().storeTtl(),
                this::reported);
        this.catchUp = new CatchUpEstimates(runtime.clock(), runtime.waitMicros(), replicas);
        this.polls = new SharedReplayPoll[replicas];
        for (int i = 0; i < replicas; i++) {
            polls[i] = new SharedReplayPoll(new Slot(i));
        }
        this.counts = new CheckCounts(polls);
    }

    /** Replica {@code index}'s slot, as its shared poll sees it. */
    private final class Slot implements SharedReplayPoll.Board {
        private final int index;

        Slot(int index) {
            this.index = index;
        }

        @Override
        public boolean replayed(LsnPosition need) {
            return applied(index, need);
        }

        @Override
        public long epoch() {
            return epochs.current(index);
        }

        @Override
        public void saw(LsnPosition position, long epoch) {
            learn(index, position, epoch);   // the poll wakes its waiters itself
        }
    }

    public ConsistencyRuntime runtime() {
        return runtime;
    }

    /**
     * Whether a new session's first read may be decided without the session's consistency state
     * ({@link SessionConsistency}), which is then made only when the session needs more: at the unit scope, without a
     * scope resolver or a shared store, such a read must see the unit's position as it is now ({@link #unitCommitted()},
     * unless a failover's re-base changes it), and leaves nothing in the state but that position and whether it was
     * settled ({@link SessionConsistency#afterFirstRead}).
     */
    public boolean firstReadWithoutState() {
        return firstReadWithoutState;
    }

    /** The level of sessions that set none. */
    public Consistency defaultLevel() {
        return runtime.config().defaultLevel();
    }

    /** A new session's consistency state. */
    public SessionConsistency newSession() {
        return new SessionConsistency(this);
    }

    ConsistencyToken read(String scope) {
        return runtime.read(keyPrefix + scope);
    }

    void record(String scope, ConsistencyToken write) {
        runtime.record(keyPrefix + scope, write);
    }

    /** Whether sessions without a named scope honour the unit's writes. */
    boolean unitWide() {
        return unitWide;
    }

    /** The unit's last committed position as known in this JVM, or {@code null}; one volatile read. */
    ConsistencyToken unitPosition() {
        return unitWide ? unit.current() : null;
    }

    /**
     * How many times what the unit's reads must see changed in this JVM (a write committed, a failover's re-base), or 0
     * when sessions without a named scope do not honour the unit's writes: a prepared read routed when it was lower is
     * routed again before it executes again. One volatile read.
     */
    public long unitChanges() {
        return unitWide ? unit.changes() : 0;
    }

    /**
     * The unit's last committed position as known in this JVM, under every scope (a session scope's reads do not
     * honour it, the stale-read audit compares with it), or {@code null}; one volatile read.
     */
    public ConsistencyToken unitCommitted() {
        return unit.current();
    }

    /**
     * The unit's last committed position as the shared store holds it (writes of every instance), as read: the caller
     * re-bases it and asks whether a failover lost it; merged, re-based, into this JVM's (a write of the old primary's
     * numbering merged as it is would keep its position with a later time, never re-based). {@code null} when the
     * store is local (this JVM's position is then complete). Throws when the store cannot answer.
     */
    ConsistencyToken readSharedUnitPosition() {
        if (!unitWide || !runtime.sharedStore()) {
            return null;
        }
        ConsistencyToken stored = runtime.read(unitKey);
        unit.committed(rebased(stored));
        return stored;
    }

    /**
     * A write of this unit committed: it raises the unit's position (and the shared one, with a shared store);
     * {@code captured} is its token as its position was read, before any re-base.
     */
    void unitCommitted(ConsistencyToken write, ConsistencyToken captured) {
        unit.committed(write, captured);
        if (unitWide && runtime.sharedStore()) {
            runtime.record(unitKey, write);
        }
    }

    /** See {@link CommitCapture#capture(Connection)}: the token of the write just committed; never throws. */
    public ConsistencyToken capture(Connection primary) {
        return commits.capture(primary);
    }

    /** See {@link CommitCapture#capture(Connection, Consumer)}: telling {@code failed} why it was not read. */
    public ConsistencyToken capture(Connection primary, Consumer<? super Exception> failed) {
        return commits.capture(primary, failed);
    }

    /** See {@link CommitCapture#captureAfterCommit}: for a connection that has just been told to commit. */
    public ConsistencyToken captureAfterCommit(Connection primary, Consumer<? super Exception> failed) {
        return commits.captureAfterCommit(primary, failed);
    }

    /** See {@link CommitCapture#commitsWithPosition}: whether {@link #commitCapturing} works on {@code primary}. */
    public boolean commitsWithPosition(Connection primary) {
        return commits.commitsWithPosition(primary);
    }

    /** See {@link CommitCapture#commitCapturing}: commit and position in one round trip; null: nothing committed. */
    public ConsistencyToken commitCapturing(Connection primary, Consumer<? super Exception> failed)
            throws SQLException {
        return commits.commitCapturing(primary, failed);
    }

    /** See {@link CommitCapture#captureElsewhere}: the token of a write whose connection is gone, read on another. */
    public ConsistencyToken captureElsewhere(Connection anotherPrimary, Consumer<? super Exception> failed) {
        return commits.captureElsewhere(anotherPrimary, failed);
    }

    /** {@link #primaryChanged(GtidPosition, GtidPosition)} with what the new primary holds of the old one unknown. */
    public void primaryChanged(GtidPosition newPrimary) {
        primaryChanged(newPrimary, newPrimary);
    }

    /**
     * Another server answers as the primary (a failover): positions learned from the old one no longer describe
     * what replicas must apply. From now on every read requires at least the base: what the new primary had now
     * ({@code newPrimary}, its position; null: the time rule), raised past every position a replica reported
     * before (see {@link AppliedPositions#forgetAll}); replicas following the new primary reach it after their replay
     * time. A write committed before this moment requires the base instead of its own position; what replicas were
     * known to have applied is forgotten. The unit's last committed write is checked against {@code survived}, what
     * the new primary holds of the old one's history ({@link LostWrites}).
     */
    public void primaryChanged(GtidPosition newPrimary, GtidPosition survived) {
        primaryChanged(newPrimary, survived, runtime.clock().epochMicros());
    }

    /**
     * As {@link #primaryChanged(GtidPosition, GtidPosition)}, {@code newPrimary} read after {@code asOfMicros}: the base
     * stands at that time, so that a write committed on the new primary before it (in {@code newPrimary}) and re-based
     * is not lost to its readers, and one committed after it keeps its own position.
     */
    public void primaryChanged(GtidPosition newPrimary, GtidPosition survived, long asOfMicros) {
        failoverSeen(asOfMicros).changed(newPrimary, survived);
    }

    /** A failover seen, told what the new primary has once its position is read ({@link #failoverSeen}). */
    @FunctionalInterface
    public interface FailoverLook {
        /** See {@link #primaryChanged(GtidPosition, GtidPosition, long)}. */
        void changed(GtidPosition newPrimary, GtidPosition survived);
    }

    /**
     * Another server answers as the primary, seen at {@code asOfMicros}, before its position is read: the unit's writes
     * as they stand now are what the failover may have lost. Taken after the position, a write committed on the new
     * primary in between would be missing from it and pass for lost.
     */
    public FailoverLook failoverSeen(long asOfMicros) {
        UnitPosition.Writes writes = unit.writes();
        return (newPrimary, survived) -> changed(newPrimary, survived, asOfMicros, writes);
    }

    private void changed(GtidPosition newPrimary, GtidPosition survived, long asOfMicros, UnitPosition.Writes writes) {
        long now = asOfMicros;
        lostWrites.failover(survived, newPrimary, writes, unit.unconfirmed(), now);
        GtidPosition position = applied.forgetAll(newPrimary);
        if (position instanceof LsnPosition lsn && position != newPrimary) {
            position = lsn.next();
        }
        ConsistencyToken base = CommitCapture.token(position, now);
        rebase = base;
        unit.rebase(base);
    }

    /** Signs and reads the unit's consistency tokens. */
    TokenTrust tokens() {
        return tokens;
    }

    /**
     * The furthest position the cluster has reported to this instance: the unit's last write, what the replicas
     * applied, the base of the last failover; null when none is known. Asked when an unsigned token is read.
     */
    private GtidPosition reported() {
        ConsistencyToken last = unitPosition();
        ConsistencyToken base = rebase;
        return applied.furthest(AppliedPositions.merged(last == null ? null : last.positionOrNull(),
                base == null ? null : base.positionOrNull()));
    }

    /**
     * The monitor reached the primary URL and a writable server answered, on a connection obtained at
     * {@code askedAtNanos}: writes whose position could not be read before then were not lost in a crash of the
     * primary that acknowledged them (a failover notices a new primary before it is told this).
     */
    public void primaryAnswered(long askedAtNanos) {
        unit.primaryAnswered(askedAtNanos);
    }

    /** See {@link CommitCapture#unconfirmedCommit}: the token of a write whose position could not be read anywhere. */
    public ConsistencyToken unconfirmedCommit(Exception why) {
        return commits.unconfirmedCommit(why);
    }

    /** See {@link LostWrites#lostWrite}. One volatile read when no failover lost anything. */
    public LostWrite lostWrite(ConsistencyToken need, String who) {
        return lostWrites.lostWrite(need, who);
    }

    /** A read had to see {@code lost}, a write a failover lost: counted; true when the read must fail. */
    public boolean lostWriteRead(LostWrite lost) {
        return lostWrites.read(lost);
    }

    /** How many failovers of the primary lost writes this unit had committed. */
    @Override
    public long lostWriteFailovers() {
        return lostWrites.lostWriteFailovers();
    }

    @Override
    public long lostWriteReads() {
        return lostWrites.lostWriteReads();
    }

    @Override
    public long checkedReplicaReads() {
        return counts.checkedReads();
    }

    @Override
    public long failedReplicaChecks() {
        return counts.failedChecks();
    }

    @Override
    public long replicaPositionQueries() {
        return counts.positionQueries();
    }

    /**
     * {@code need}, or, for a write committed before the last failover, what the new primary had then (the old
     * primary's positions cannot be compared with the new one's). One volatile read when nothing failed over.
     */
    public ConsistencyToken rebased(ConsistencyToken need) {
        return rebased(need, rebase);
    }

    /**
     * What the new primary had at the last failover (its commit time: then), or null: one volatile read. Tokens merged
     * into one are each re-based with the same base ({@link #rebased(ConsistencyToken, ConsistencyToken)}), read after
     * all of them: a token read before the failover merged with the base would keep the old primary's position with the
     * base's time, never re-based again (it would require a position the new primary's numbering reuses).
     */
    ConsistencyToken failoverBase() {
        return rebase;
    }

    /** {@link #rebased(ConsistencyToken)} against {@code base}, a {@link #failoverBase()} read after {@code need}. */
    static ConsistencyToken rebased(ConsistencyToken need, ConsistencyToken base) {
        if (base == null || need == null) {
            return need;
        }
        if (need.commitTimeMicros() < base.commitTimeMicros()) {
            return base;
        }
        GtidPosition own = need.positionOrNull();
        if (own == null || base.positionOrNull() == null) {
            return need;   // what merging it with the base would give: its own position, or none, at its own time
        }
        try {
            // a write on the new primary past the base: the usual case, without allocation
            return own.contains(base.positionOrNull()) ? need : Tokens.merge(need, base);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return need;
        }
    }

    /** Whether {@code need} is honoured by GTID (else by time). */
    public boolean byGtid(ConsistencyToken need) {
        return need.positionOrNull() != null && runtime.config().mode() != ReadYourWritesMode.TIME;
    }

    /** Time rule: whether a read now must still go to the primary. */
    public boolean withinWindow(ConsistencyToken need) {
        return runtime.clock().epochMicros() - need.commitTimeMicros() < runtime.windowMicros();
    }

    /**
     * Whether replica {@code index} is known to have applied {@code need}: learned from the replica as it is now
     * (its epoch has not changed since), never from before a restart or a lost connection.
     */
    public boolean applied(int index, GtidPosition need) {
        return applied.has(index, need);
    }

    /**
     * Tells that replica {@code index} has applied {@code position} (successful wait, health monitor), as learned
     * in {@code epoch} (read before asking the replica): ignored when the replica's epoch has changed since.
     */
    public void observed(int index, GtidPosition position, long epoch) {
        if (learn(index, position, epoch)) {
            polls[index].learned();   // reads waiting on that replica look again
        }
    }

    /** {@link #observed}, without waking the reads waiting on the replica; whether what it applied grew. */
    private boolean learn(int index, GtidPosition position, long epoch) {
        // under every scope: how far behind the replica is does not depend on whose writes reads honour
        ConsistencyToken unitWrite = unitCommitted();
        GtidPosition unitAt = unitWrite == null ? null : unitWrite.positionOrNull();
        try {
            if (unitAt != null && epochs.isCurrent(index, epoch) && position.contains(unitAt)) {
                catchUp.applied(index, unitWrite.commitTimeMicros());   // it keeps up: worth a wait for newer writes
            }
        }
        catch (IllegalArgumentException flavoursDiffer) {
            // a position of another server kind says nothing about this one
        }
        return applied.learn(index, position, epoch);
    }

    /**
     * Whether replica {@code index}, measured {@code lagMicros} behind, may apply {@code need} within the wait
     * timeout (from its lag and recent timeouts); never when waiting is disabled.
     */
    public boolean canCatchUp(int index, long lagMicros, ConsistencyToken need) {
        return catchUp.canCatchUp(index, lagMicros, need.commitTimeMicros());
    }

    /**
     * The first statement of a read checked in its own round trip ({@link #checkedInRead(String)}): what the standby has
     * replayed, and the isolation the read's implicit transaction runs at.
     */
    static final String CHECK = "select pg_last_wal_replay_lsn(), current_setting('transaction_isolation')";

    /**
     * Whether a read that must see a position it is not known to have, on the standby behind {@code replica}, can be
     * checked in its own round trip instead of asking the standby first: PostgreSQL standbys that can only be asked
     * (no {@code WAIT FOR LSN}), until a read found that replica reads run at an isolation where the check would not
     * hold ({@link #checkedInRead(int, String, String, long, ConsistencyToken)}).
     */
    public boolean checksInRead(Connection replica) {
        if (!checkInRead) {
            return false;
        }
        try {
            return flavour(replica) == GtidFlavour.POSTGRESQL && catchUp.polled();
        }
        catch (SQLException e) {
            return false;
        }
    }

    /**
     * {@code sql}, a read, preceded in the same message by the question what the standby has replayed: pgjdbc sends both
     * statements with one Sync, one round trip, and at READ COMMITTED the read takes its snapshot after the answer was
     * read, so the read sees every commit up to that position.
     */
    public static String checkedInRead(String sql) {
        return CHECK + "; " + sql;
    }

    /** Replica {@code index}'s epoch now: read before a read whose answer tells what the replica applied. */
    public long epoch(int index) {
        return epochs.current(index);
    }

    /**
     * A read checked in its own round trip ran on replica {@code index}, which answered {@code replayed} (its
     * {@code pg_last_wal_replay_lsn()} as text; null: not a standby) and {@code isolation} first, the epoch being
     * {@code epoch} before the read. Whether the read's rows are those of a snapshot that has {@code need}: the position
     * is replayed, and the read took its own snapshot after the question (READ COMMITTED; at REPEATABLE READ or
     * SERIALIZABLE both statements share the snapshot taken before the answer, so the answer proves nothing and such
     * checks stop for this unit). What the replica replayed is learnt either way, as from an asked standby.
     */
    public boolean checkedInRead(int index, String replayed, String isolation, long epoch, ConsistencyToken need) {
        boolean passed = passed(index, replayed, isolation, epoch, need);
        counts.checked(passed);
        return passed;
    }

    private boolean passed(int index, String replayed, String isolation, long epoch, ConsistencyToken need) {
        LsnPosition position;
        try {
            position = replayed == null ? null : LsnPosition.parse(replayed);
        }
        catch (IllegalArgumentException notAPosition) {
            position = null;
        }
        if (position == null) {
            return false;
        }
        observed(index, position, epoch);
        if (!"read committed".equals(isolation) && !"read uncommitted".equals(isolation)) {
            if (checkInRead) {
                checkInRead = false;
                ConsistencyRuntime.log.info("hibernate-rwsplit [{}]: replica reads run at {}, where a read's snapshot is"
                        + " taken before the standby's replayed position can be read with it: reads that must see a write"
                        + " ask the standby first", label, isolation);
            }
            return false;
        }
        GtidPosition required = need.positionOrNull();
        boolean covered;
        try {
            covered = required != null && position.contains(required);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            covered = false;
        }
        if (covered) {
            catchUp.caughtUp(index, need.commitTimeMicros(), false);
        }
        return covered;
    }

    /**
     * Makes replica {@code index} (behind {@code replica}) wait until it applied {@code need}, for at most the
     * configured timeout; remembers a timeout so that the next reads skip that replica while it cannot catch up.
     * {@code justAsked}: a read whose check in its own round trip has just found the standby without {@code need}
     * ({@link #checkedInRead(int, String, String, long, ConsistencyToken)}); that check was the first question, so the
     * wait begins with the poll's pause, not with asking the standby again.
     */
    public boolean await(Connection replica, int index, ConsistencyToken need, boolean justAsked) {
        WaitResult result = await(replica, index, need.positionOrNull(), justAsked);
        if (result.applied()) {
            catchUp.caughtUp(index, need.commitTimeMicros(), result == WaitResult.APPLIED_AFTER_WAITING);
            return true;
        }
        catchUp.timedOut(index, need.commitTimeMicros());
        return false;
    }

    /**
     * Makes replica {@code index} (behind {@code replica}) wait until it applied {@code need}, for at most the
     * configured timeout. {@code NOT_APPLIED} on timeout or when the replica cannot wait (then: the primary).
     */
    private WaitResult await(Connection replica, int index, GtidPosition need, boolean justAsked) {
        long epoch = epochs.current(index);
        try {
            GtidFlavour f = flavour(replica);
            if (!f.accepts(need)) {
                return WaitResult.NOT_APPLIED;
            }
            if (!catchUp.polled()) {
                counts.waitStatement();   // one statement waits on the server (a poll counts its own asks)
            }
            WaitResult result = f.await(replica, need, runtime.waitMicros(), runtime.clock(), polls[index], justAsked);
            if (result.applied()) {
                observed(index, need, epoch);
            }
            return result;
        }
        catch (SQLException e) {
            ConsistencyRuntime.log.debug("hibernate-rwsplit [{}]: waiting for GTID {} on replica {} failed: {}", label, need,
                    index, e.toString());
            return WaitResult.NOT_APPLIED;
        }
    }

    private GtidFlavour flavour(Connection c) throws SQLException {
        GtidFlavour f = flavour;
        if (f == null) {
            f = GtidFlavour.of(c);
            // standbys run the primary's major version (physical replication): polled waits below 19
            catchUp.polled(f == GtidFlavour.POSTGRESQL && !LsnWait.waitsOnServer(c));
            flavour = f;
        }
        return f;
    }
}
