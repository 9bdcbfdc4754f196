package io.rwsplit.route;

import org.hibernate.CacheMode;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.RouteDecision;
import io.rwsplit.consistency.SessionConsistency;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.stats.SessionStatistics;
import io.rwsplit.stats.StatisticsRecorder;

/**
 * The routing state of one Hibernate session: whether it flushes, what the application asked for, and
 * its statistics. Confined to the session's thread, like the session itself.
 */
public class SessionRouting {

    private final SharedSessionContractImplementor session;
    private final StatisticsRecorder statistics;
    private final SessionConsistency consistency;
    private final RoutingIntentSource ambient;
    private final boolean guardCache;
    private CacheMode savedCacheMode;
    private int flushDepth;
    private Intent[] intents;
    private int intentDepth;

    /**
     * @param session    the session, or {@code null} for connections Hibernate takes outside any session
     * @param statistics where decisions are counted, or {@code null} to count nothing
     */
    public SessionRouting(SharedSessionContractImplementor session, StatisticsRecorder statistics) {
        this(session, statistics, false, null);
    }

    /**
     * @param guardCache  whether entities read from a replica must not be put into the second-level cache
     * @param consistency the session's consistency state, or {@code null} to track nothing (reads as EVENTUAL)
     */
    public SessionRouting(SharedSessionContractImplementor session, StatisticsRecorder statistics, boolean guardCache,
                          SessionConsistency consistency) {
        this(session, statistics, guardCache, consistency, RoutingIntentSource.NONE);
    }

    /**
     * @param ambient the intent (and consistency level) of the unit of work, for a session that has no intent
     *                of its own: a container's interceptors
     */
    public SessionRouting(SharedSessionContractImplementor session, StatisticsRecorder statistics, boolean guardCache,
                          SessionConsistency consistency, RoutingIntentSource ambient) {
        this.session = session;
        this.statistics = statistics;
        this.guardCache = guardCache && session != null;
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
     * A statement goes to a replica: while its results are read, the session does not put entities into
     * the second-level cache (a lagging replica would otherwise seed the cache with old state for
     * everyone). The session's cache mode is switched to GET (or IGNORE) and restored by
     * {@link #servedByPrimary()}, which the connection calls at the next primary statement and when it closes.
     */
    final void servedByReplica() {
        if (guardCache && savedCacheMode == null) {
            CacheMode mode = session.getCacheMode();
            if (mode.isPutEnabled()) {
                savedCacheMode = mode;
                session.setCacheMode(mode.isGetEnabled() ? CacheMode.GET : CacheMode.IGNORE);
            }
        }
    }

    /** Restores the cache mode changed by {@link #servedByReplica()}. */
    final void servedByPrimary() {
        if (savedCacheMode != null) {
            session.setCacheMode(savedCacheMode);
            savedCacheMode = null;
        }
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

    /** Whether the session's entities are read-only by default ({@code Session#setDefaultReadOnly}). */
    public final boolean defaultReadOnly() {
        return session != null && session.isDefaultReadOnly();
    }

    public final SharedSessionContractImplementor session() {
        return session;
    }

    /** The session's statistics, or {@code null} outside a session. */
    public SessionStatistics statistics() {
        return statistics instanceof SessionStatistics s ? s : null;
    }

    final void record(RouteDecision decision, int replicaIndex) {
        if (statistics != null) {
            statistics.record(decision, replicaIndex);
        }
    }
}
