package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import io.rwsplit.internal.health.GtidReader;
import io.rwsplit.internal.stats.AuditCounts;
import io.rwsplit.internal.stats.QueryShapes;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;

/**
 * The stale-read audit of one factory: a sample of replica reads (of every statement door), once each read's results
 * are closed (never in the middle of them), reads on the same connection the position the replica has applied (MariaDB
 * {@code @@gtid_slave_pos}, MySQL {@code @@global.gtid_executed}, PostgreSQL {@code pg_last_wal_replay_lsn()}) and
 * compares it with what was committed when the read was routed (in a read-only transaction, when its first read was).
 * Positions only grow, so a replica that has not applied a write after the read had not applied it during the read:
 * the read could not see it.
 * <ul>
 *   <li>stale against the unit: the replica lacked a write this unit (in this JVM) had committed before the read
 *       was routed, whether the read needed it or not (reads that could have been stale);</li>
 *   <li>stale against the session: it lacked what the session's consistency level required (its own writes, its
 *       scope's, the unit's by default; nothing under {@code eventual}): a broken read-your-writes, always 0 unless
 *       something is wrong.</li>
 * </ul>
 * The position is {@link GtidReader#visible}'s: on MariaDB the replica's GTID table where the user may read it, which
 * cannot lag a visible row. Elsewhere a count can be too high by the reads that ran in the moment between a replica
 * making a write visible and moving its position past it (MariaDB's {@code @@gtid_slave_pos} as the commit completes;
 * PostgreSQL's replay position right after the commit record). Where no position can be read (H2, time mode, a server without GTIDs, a failed
 * query) the read is counted as not audited, never as fresh.
 */
final class ReadAudit implements AuditCounts {

    /**
     * One sampled replica read: what it had to see when it began, then where it ran and its shape ({@link #ran}), and
     * the result set of an {@code executeQuery} while it is open ({@link #handedOut}). Its statement calls
     * {@link #resultsClosed} once the read's results are closed: when that result set closes, when the statement runs
     * again, when it closes. Allocated only for the reads the audit samples.
     */
    static final class Sample {

        private final ReadAudit audit;
        private final ConsistencyToken unit;
        private final ConsistencyToken session;
        private Connection on;
        private QueryShapes.Shape shape;
        private ResultSet results;

        Sample(ReadAudit audit, ConsistencyToken unit, ConsistencyToken session) {
            this.audit = audit;
            this.unit = unit;
            this.session = session;
        }

        ConsistencyToken unit() {
            return unit;
        }

        ConsistencyToken session() {
            return session;
        }

        /**
         * The read ran on {@code statement} (after any move), of {@code shape}: it is checked on that statement's
         * connection. Returns this sample.
         */
        Sample ran(java.sql.Statement statement, QueryShapes.Shape shape) {
            try {
                this.on = statement.getConnection();
            }
            catch (SQLException | RuntimeException e) {
                this.on = null;   // checked as not audited: the audit never fails a statement
            }
            this.shape = shape;
            return this;
        }

        /** The driver's result set of the read ({@code executeQuery}): closing it ends the read. Returns it. */
        ResultSet handedOut(ResultSet results) {
            this.results = results;
            return results;
        }

        /**
         * Whether {@code closed} (a driver result set just closed) is this read's: its results are closed then, and
         * {@link #resultsClosed()} does not close it again.
         */
        boolean endsWith(ResultSet closed) {
            if (closed == null || closed != results) {
                return false;
            }
            results = null;
            return true;
        }

        /**
         * The read's results are closed (its result set, if still open, is closed first: no audit runs in the middle of
         * a streaming result): it is checked on the connection it ran on. Never throws.
         */
        void resultsClosed() {
            ResultSet open = results;
            results = null;
            if (open != null) {
                try {
                    open.close();
                }
                catch (SQLException | RuntimeException ignored) {
                    // the check below tells whether the connection still answers
                }
            }
            audit.check(on, this, shape);
        }
    }

    private final int every;
    private final GtidReader gtid = new GtidReader();
    private final LongAdder audited = new LongAdder();
    private final LongAdder unaudited = new LongAdder();
    private final LongAdder staleUnit = new LongAdder();
    private final LongAdder staleSession = new LongAdder();

    /** @param every one replica read in this many is audited; 0: none */
    ReadAudit(int every) {
        this.every = every;
    }

    /** Whether any read is audited ({@code audit_sample} above 0). */
    boolean on() {
        return every > 0;
    }

    /** Whether the replica read beginning now is audited: no lock, no allocation. */
    boolean sampled() {
        return every == 1 || (every > 1 && ThreadLocalRandom.current().nextInt(every) == 0);
    }

    /**
     * Checks a sampled read on {@code replica}, the connection that served it, after its statement's results closed.
     * Never throws: a position that cannot be read counts the read as not audited.
     */
    void check(Connection replica, Sample sample, QueryShapes.Shape shape) {
        GtidPosition applied;
        try {
            applied = replica == null ? null : gtid.visible(replica);
        }
        catch (SQLException | RuntimeException e) {
            applied = null;
        }
        if (applied == null) {
            unaudited.increment();   // no position here: nothing can be told, whatever was required
            return;
        }
        Boolean unit = missed(applied, sample.unit());
        Boolean session = missed(applied, sample.session());
        if (unit == null || session == null) {
            unaudited.increment();
            return;
        }
        audited.increment();
        if (unit) {
            staleUnit.increment();
        }
        if (session) {
            staleSession.increment();
        }
        shape.audited(unit, session);
    }

    /** Whether {@code applied} lacks {@code need}: false when nothing was needed, null when it cannot be told. */
    private static Boolean missed(GtidPosition applied, ConsistencyToken need) {
        if (need == null) {
            return Boolean.FALSE;
        }
        GtidPosition position = need.trusted() ? need.positionOrNull() : null;
        if (position == null || position.isEmpty()) {
            return position == null ? null : Boolean.FALSE;
        }
        if (applied == null) {
            return null;
        }
        try {
            return !applied.contains(position);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return null;
        }
    }

    @Override
    public long auditedReads() {
        return audited.sum();
    }

    @Override
    public long unauditedReads() {
        return unaudited.sum();
    }

    @Override
    public long staleReadsAgainstUnit() {
        return staleUnit.sum();
    }

    @Override
    public long staleReadsAgainstSession() {
        return staleSession.sum();
    }
}
