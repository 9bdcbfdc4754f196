package io.rwsplit.internal.route;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.RouteDecision;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.CausalReasons;
import io.rwsplit.internal.consistency.LostWrite;
import io.rwsplit.internal.consistency.SessionConsistency;
import io.rwsplit.internal.stats.SessionStatistics;
import io.rwsplit.internal.stats.StatisticsRecorder;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.spi.RoutingIntentSource;

/**
 * The routing state of one Hibernate session: whether it flushes, what the application asked for, and
 * its statistics. Confined to the session's thread, like the session itself. It names no Hibernate type: the
 * Hibernate glue's subclass ({@code io.rwsplit.internal.hibernate.RwSplitSession}) tells it the session's read-only default and
 * guards the session's second-level cache while replica results are read ({@link #servedByReplica()}).
 */
public class SessionRouting {

    /** Not made yet, and no read asked for it (0, the field's value before the constructor sets it: the safe one). */
    private static final byte NOT_YET = 0;
    /** The consistency state is made (or there is none: {@link #consistency} is null). */
    private static final byte MADE = 1;
    /** Not made yet; the first read required {@link #consistency} (a token, or null), which is not settled. */
    private static final byte FIRST_READ = 2;
    /** Not made yet; the first read required {@link #consistency}, since met by every replica (settled). */
    private static final byte FIRST_READ_SETTLED = 3;

    /*
     * A new Hibernate session makes one of these (of its subclass), so its fields are kept few and small: 40 bytes
     * with compressed references (SessionObjectSizeTest).
     */

    /**
     * Where decisions are counted: a {@link StatisticsRecorder}, given, or made at the second decision or when asked
     * for; until it is made, the first decision (a {@link RouteDecision}: its replica is found by name then); null
     * before any.
     */
    private Object counted;
    /**
     * The session's {@link SessionConsistency} (or null: it tracks none) once made ({@link #MADE}); before, what its
     * first read required (a {@link ConsistencyToken}, or null), see {@link #consistencyState}.
     */
    private Object consistency;
    /** {@link #MADE}, {@link #NOT_YET}, {@link #FIRST_READ} or {@link #FIRST_READ_SETTLED}. */
    private byte consistencyState;
    private Intent[] intents;
    private short flushDepth;
    private short intentDepth;
    /**
     * Whether this session put itself into its router's slot for the thread acquiring its connection
     * ({@link AcquiringSessions#begin}) and {@link Router#open} has not taken it out yet.
     */
    boolean acquiring;

    /**
     * Routing for connections Hibernate takes outside any session, and for tests: counts nothing, tracks nothing
     * (reads as EVENTUAL).
     */
    public SessionRouting() {
        this(null, null);
    }

    /**
     * @param statistics  where decisions are counted, or {@code null} to count nothing (until {@link #newStatistics()}
     *                    makes them)
     * @param consistency the session's consistency state, or {@code null} to track nothing (reads as EVENTUAL)
     */
    public SessionRouting(StatisticsRecorder statistics, SessionConsistency consistency) {
        this.counted = statistics;
        this.consistency = consistency;
        this.consistencyState = MADE;
    }

    /**
     * A session whose consistency state is made by {@link #causal()} when first needed: a session that reads once at
     * the defaults never needs it ({@link CausalReads#firstReadWithoutState()}). Its
     * {@code statistics} are given (null: none until {@link #newStatistics()} makes them), as for
     * {@link #SessionRouting(StatisticsRecorder, SessionConsistency)}.
     */
    protected SessionRouting(StatisticsRecorder statistics) {
        this.counted = statistics;
        this.consistencyState = NOT_YET;
    }

    /** Where a session that makes its consistency state when first needed makes it; null: it tracks none. */
    protected CausalReads causal() {
        return null;
    }

    /**
     * The intent (and consistency level) of the unit of work, for a session that has no intent of its own: a
     * container's interceptors. None here.
     */
    protected RoutingIntentSource ambient() {
        return RoutingIntentSource.NONE;
    }

    /** The session's consistency state, made now if it was not yet; {@code null} outside a session. */
    public final SessionConsistency consistency() {
        return consistencyState == MADE ? (SessionConsistency) consistency : make();
    }

    private SessionConsistency make() {
        CausalReads causal = causal();
        SessionConsistency made = causal == null ? null : causal.newSession();
        if (made != null && consistencyState != NOT_YET) {
            made.afterFirstRead((ConsistencyToken) consistency, consistencyState == FIRST_READ_SETTLED);
        }
        consistency = made;
        consistencyState = MADE;
        return made;
    }

    /** Whether the session tracks consistency (it has a {@link #consistency()} state, made or to be made). */
    public final boolean tracksConsistency() {
        return consistencyState == MADE ? consistency != null : causal() != null;
    }

    /**
     * The consistency level of the current statement: the unit of work's (a container's {@code @Consistency})
     * when it names one, else the session's. Only for sessions that {@link #tracksConsistency()}.
     */
    public final Consistency consistencyLevel() {
        Consistency level = ambient().currentConsistency();
        if (level != null) {
            return level;
        }
        return consistencyState == MADE ? ((SessionConsistency) consistency).level() : causal().defaultLevel();
    }

    // ---------------------------------------------------------------- a read's requirement, for the gate
    // As SessionConsistency's methods of the same names, without making the state for the session's first read when
    // CausalReads#firstReadWithoutState allows: the state that read leaves is the token it required and whether it was
    // settled, which the state is made with (SessionConsistency#afterFirstRead) when the session needs more.

    /** What the read must see now, or {@code null} ({@link SessionConsistency#requirement()}). */
    final ConsistencyToken requirement() {
        if (consistencyState == NOT_YET) {
            CausalReads causal = causal();
            if (causal != null && causal.firstReadWithoutState()) {
                ConsistencyToken unit = causal.unitCommitted();
                // else a failover's re-base, or its loss published before its re-base: the state says what they mean
                if (causal.rebased(unit) == unit && causal.lostWrite(unit, null) == null) {
                    consistency = unit;
                    consistencyState = FIRST_READ;
                    return unit;
                }
            }
        }
        return consistency().requirement();
    }

    /** Whether a write a failover lost waits to be reported to the next read ({@link #takeLostWrite()}). */
    final boolean lostWritePending() {
        return consistencyState == MADE && consistency != null && ((SessionConsistency) consistency).lostWritePending();
    }

    /** A write a failover lost that the read required, once ({@link SessionConsistency#takeLostWrite()}). */
    final LostWrite takeLostWrite() {
        return consistencyState == MADE ? ((SessionConsistency) consistency).takeLostWrite() : null;
    }

    /** The reasons the session's READ_YOUR_WRITES reads report ({@link SessionConsistency#reasons()}). */
    final CausalReasons reasons() {
        // a first read decided without the state was at the unit scope; before any, the state answers
        return consistencyState == FIRST_READ || consistencyState == FIRST_READ_SETTLED ? CausalReasons.UNIT
                : consistency().reasons();
    }

    /** Whether the scope's state could not be read from the store ({@link SessionConsistency#stateUnknown()}). */
    final boolean stateUnknown() {
        return consistencyState == MADE && ((SessionConsistency) consistency).stateUnknown();
    }

    /** {@code need} is met by every replica from now on ({@link SessionConsistency#settled}). */
    final void settled(ConsistencyToken need) {
        if (consistencyState == MADE) {
            ((SessionConsistency) consistency).settled(need);
        }
        else if (consistencyState == FIRST_READ && consistency == need) {
            consistencyState = FIRST_READ_SETTLED;
        }
    }

    /** What the reads had to see when last asked, for the stale-read audit ({@link SessionConsistency#lastRequirement()}). */
    final ConsistencyToken lastRequirement() {
        return switch (consistencyState) {
            case MADE -> consistency == null ? null : ((SessionConsistency) consistency).lastRequirement();
            case FIRST_READ -> (ConsistencyToken) consistency;
            default -> null;
        };
    }

    /** No autocommit write waits to be recorded any more ({@link SessionConsistency#pendingWrite}); makes nothing. */
    final void noPendingWrite() {
        if (consistencyState == MADE && consistency != null) {
            ((SessionConsistency) consistency).pendingWrite(null);
        }
    }
    /**
     * A statement goes to a replica. The Hibernate session stops putting entities into the second-level cache
     * while its results are read (a lagging replica would otherwise seed the cache with old state for everyone),
     * until {@link #servedByPrimary()}, which the connection calls at the next primary statement and when it closes.
     * Nothing to do outside a session.
     */
    protected void servedByReplica() {
    }

    /** A statement goes to the primary, or the connection closes: undoes what {@link #servedByReplica()} did. */
    protected void servedByPrimary() {
    }

    public final void flushStarted() {
        if (flushDepth < Short.MAX_VALUE) {
            flushDepth++;
        }
    }

    public final void flushEnded() {
        if (flushDepth > 0) {
            flushDepth--;
        }
    }

    public final boolean flushing() {
        return flushDepth > 0;
    }

    /** The innermost intent of the session, else the ambient one (container interceptors), else {@link Intent#NONE}. */
    public final Intent intent() {
        return intentDepth == 0 ? ambient().currentIntent() : intents[intentDepth - 1];
    }

    public final void pushIntent(Intent intent) {
        if (intents == null) {
            intents = new Intent[4];
        }
        else if (intentDepth == intents.length) {
            if (intentDepth == Short.MAX_VALUE) {
                throw new IllegalStateException("hibernate-rwsplit: " + Short.MAX_VALUE + " routing intents are in force"
                        + " in one session at once: each RwSplit.onPrimary/onReplica must end before the session's next"
                        + " one beyond that");
            }
            intents = java.util.Arrays.copyOf(intents, Math.min(intentDepth * 2, Short.MAX_VALUE));
        }
        intents[intentDepth++] = intent;
    }

    public final void popIntent() {
        if (intentDepth > 0) {
            intents[--intentDepth] = null;
        }
    }

    /** Whether the session's entities are read-only by default ({@code Session#setDefaultReadOnly}); false outside one. */
    public boolean defaultReadOnly() {
        return false;
    }

    /** The session's statistics, or {@code null} outside a session. */
    public SessionStatistics statistics() {
        return made() instanceof SessionStatistics s ? s : null;
    }

    /**
     * The statistics of a session that counts its decisions, made when first needed (most sessions route one
     * statement, and its decision is kept until then); null for one that counts nothing (the default).
     */
    protected StatisticsRecorder newStatistics() {
        return null;
    }

    final void record(RouteDecision decision, int replicaIndex) {
        Object c = counted;
        StatisticsRecorder s;
        if (c instanceof StatisticsRecorder recorder) {
            s = recorder;
        }
        else if (c == null) {
            counted = decision;
            return;
        }
        else {
            s = made();
            if (s == null) {
                return;
            }
        }
        s.record(decision, replicaIndex);
    }

    /** The statistics, made now if needed with the first decision counted; null when the session counts none. */
    private StatisticsRecorder made() {
        Object c = counted;
        if (c instanceof StatisticsRecorder recorder) {
            return recorder;
        }
        StatisticsRecorder s = newStatistics();
        if (s == null) {
            return null;
        }
        if (c instanceof RouteDecision first) {
            s.recordKept(first);
        }
        counted = s;
        return s;
    }
}
