package io.rwsplit.internal.hibernate;


import org.hibernate.CacheMode;
import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.route.Router;
import io.rwsplit.internal.route.SessionRouting;
import io.rwsplit.internal.stats.SessionStatistics;
import io.rwsplit.spi.RoutingIntentSource;

/**
 * hibernate-rwsplit's part of one Hibernate session, registered as its {@link SessionEventListener} (so it
 * sees flushes and hands itself to the router when the session acquires a connection). How the
 * {@code RwSplit} facade finds it depends on the Hibernate release: see {@link RwSplitSessions}. While a statement's
 * results come from a replica, it keeps the session from putting entities into the second-level cache.
 */
public class RwSplitSession extends SessionRouting implements SessionEventListener {

    private final SharedSessionContractImplementor session;
    private final Router router;
    /** Whether entities read from a replica must not be put into the second-level cache. */
    private final boolean guardCache;
    /** The cache mode {@link #servedByReplica()} replaced (its ordinal: a byte keeps the object small), or -1. */
    private byte savedCacheMode = -1;

    private static final CacheMode[] CACHE_MODES = CacheMode.values();

    RwSplitSession(SharedSessionContractImplementor session, Router router, boolean guardCache) {
        super(null);
        this.session = session;
        this.router = router;
        this.guardCache = guardCache;
    }

    /** Consistency for the router's replicas, which makes this session's state when it needs one; or null. */
    @Override
    protected final CausalReads causal() {
        return router.causal();
    }

    /** The unit of work's intent where the application's container gives one (its interceptors). */
    @Override
    protected final RoutingIntentSource ambient() {
        return router.intentSource();
    }

    /** Made at the session's second statement, or when the application asks for them. */
    @Override
    protected final SessionStatistics newStatistics() {
        return new SessionStatistics(router.replicaNames());
    }

    public final SharedSessionContractImplementor session() {
        return session;
    }

    @Override
    public final boolean defaultReadOnly() {
        return session.isDefaultReadOnly();
    }

    /** The session's cache mode is switched to GET (or IGNORE) while replica results are read. */
    @Override
    protected final void servedByReplica() {
        if (guardCache && savedCacheMode < 0) {
            CacheMode mode = session.getCacheMode();
            if (mode.isPutEnabled()) {
                savedCacheMode = (byte) mode.ordinal();
                session.setCacheMode(mode.isGetEnabled() ? CacheMode.GET : CacheMode.IGNORE);
            }
        }
    }

    @Override
    protected final void servedByPrimary() {
        if (savedCacheMode >= 0) {
            session.setCacheMode(CACHE_MODES[savedCacheMode]);
            savedCacheMode = -1;
        }
    }

    public final Router router() {
        return router;
    }

    @Override
    public final void jdbcConnectionAcquisitionStart() {
        router.beginAcquisition(this);
    }

    @Override
    public final void jdbcConnectionAcquisitionEnd() {
        router.endAcquisition(this);
    }

    @Override
    public final void flushStart() {
        flushStarted();
    }

    @Override
    public final void flushEnd(int numberOfEntities, int numberOfCollections) {
        flushEnded();
    }

    @Override
    public final void partialFlushStart() {
        flushStarted();
    }

    @Override
    public final void partialFlushEnd(int numberOfEntities, int numberOfCollections) {
        flushEnded();
    }
}
