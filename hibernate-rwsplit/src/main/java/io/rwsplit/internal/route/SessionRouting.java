package io.rwsplit.internal.route;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.RouteDecision;
import io.rwsplit.internal.consistency.SessionConsistency;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.internal.stats.SessionStatistics;
import io.rwsplit.internal.stats.StatisticsRecorder;

/**
 * The routing state of one Hibernate session: whether it flushes, what the application asked for, and
 * its statistics. Confined to the session's thread, like the session itself. It names no Hibernate type: the
 * Hibernate glue's subclass ({@code io.rwsplit.internal.hibernate.RwSplitSession}) tells it the session's read-only default and
 * guards the session's second-level cache while replica results are read ({@link #servedByReplica()}).
 */
public class SessionRouting {

    /** Where decisions are counted: given, or made at the second decision or when asked for; null until then. */
    private StatisticsRecorder statistics;
    /** The first decision, while {@link #statistics} is not made yet (its replica is found by name then). */
    private RouteDecision first;
    private final SessionConsistency consistency;
    private final RoutingIntentSource ambient;
    private int flushDepth;
    private Intent[] intents;
    private int intentDepth;
    /**
     * Whether this session put itself into its router's slot for the thread acquiring its connection
     * ({@link Router#beginAcquisition}) and {@link Router#open} has not taken it out yet.
     */
    boolean acquiring;

    /**
     * Routing for connections Hibernate takes outside any session, and for tests: counts nothing, tracks nothing
     * (reads as EVENTUAL).
     */
    public SessionRouting() {
        this(null, null, RoutingIntentSource.NONE);
    }

    /**
     * @param statistics  where decisions are counted, or {@code null} to count nothing
     * @param consistency the session's consistency state, or {@code null} to track nothing (reads as EVENTUAL)
     * @param ambient     the intent (and consistency level) of the unit of work, for a session that has no intent
     *                    of its own: a container's interceptors
     */
    public SessionRouting(StatisticsRecorder statistics, SessionConsistency consistency, RoutingIntentSource ambient) {
        this.statistics = statistics;
        this.consistency = consistency;
        this.ambient = ambient;
    }

    /** The session's consistency state, or {@code null} outside a session. */
    public final SessionConsistency consistency() {
        return consistency;
    }

    /**
     * The consistency level of the current statement: the unit of work's (a container's {@code @Consistency})
     * when it names one, else the session's. Only for sessions with a {@link #consistency()} state.
     */
    public final Consistency consistencyLevel() {
        Consistency level = ambient.currentConsistency();
        return level != null ? level : consistency.level();
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
        flushDepth++;
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
        return intentDepth == 0 ? ambient.currentIntent() : intents[intentDepth - 1];
    }

    public final void pushIntent(Intent intent) {
        if (intents == null) {
            intents = new Intent[4];
        }
        else if (intentDepth == intents.length) {
            intents = java.util.Arrays.copyOf(intents, intentDepth * 2);
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
        StatisticsRecorder s = statistics;
        if (s == null) {
            if (first == null) {
                first = decision;
                return;
            }
            s = made();
            if (s == null) {
                return;
            }
        }
        s.record(decision, replicaIndex);
    }

    /** {@link #statistics}, made now if needed with the first decision counted; null when the session counts none. */
    private StatisticsRecorder made() {
        if (statistics == null) {
            StatisticsRecorder s = newStatistics();
            if (s == null) {
                return null;
            }
            if (first != null) {
                s.recordKept(first);
                first = null;
            }
            statistics = s;
        }
        return statistics;
    }
}
