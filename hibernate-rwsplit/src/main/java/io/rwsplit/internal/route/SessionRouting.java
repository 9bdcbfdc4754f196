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
    private final SessionConsistency consistency;
    private Intent[] intents;
    private short flushDepth;
    private short intentDepth;
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
    }

    /**
     * The intent (and consistency level) of the unit of work, for a session that has no intent of its own: a
     * container's interceptors. None here.
     */
    protected RoutingIntentSource ambient() {
        return RoutingIntentSource.NONE;
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
        Consistency level = ambient().currentConsistency();
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
