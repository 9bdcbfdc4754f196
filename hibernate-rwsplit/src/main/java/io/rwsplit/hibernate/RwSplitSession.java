package io.rwsplit.hibernate;

import java.util.List;

import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

import io.rwsplit.route.Router;
import io.rwsplit.route.SessionRouting;
import io.rwsplit.stats.SessionStatistics;

/**
 * hibernate-rwsplit's part of one Hibernate session, registered as its {@link SessionEventListener} (so it
 * sees flushes and hands itself to the router when the session acquires a connection). How the
 * {@code RwSplit} facade finds it depends on the Hibernate release: see {@link RwSplitSessions}.
 */
public class RwSplitSession extends SessionRouting implements SessionEventListener {

    private final Router router;

    RwSplitSession(SharedSessionContractImplementor session, Router router, List<String> replicaNames,
                   boolean guardCache) {
        super(session, new SessionStatistics(replicaNames), guardCache,
                router.causal() == null ? null : router.causal().newSession(), router.intentSource());
        this.router = router;
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
        router.endAcquisition();
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
