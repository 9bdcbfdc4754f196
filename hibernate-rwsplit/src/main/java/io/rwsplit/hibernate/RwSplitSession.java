package io.rwsplit.hibernate;

import java.util.List;

import org.hibernate.SessionEventListener;
import org.hibernate.engine.extension.spi.Extension;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

import io.rwsplit.route.Router;
import io.rwsplit.route.SessionRouting;
import io.rwsplit.stats.SessionStatistics;

/**
 * hibernate-rwsplit's part of one Hibernate session: attached to the session as an {@link Extension}
 * (so the {@code RwSplit} facade finds it in one hop) and registered as its {@link SessionEventListener}
 * (so it sees flushes and hands itself to the router when the session acquires a connection).
 */
public final class RwSplitSession extends SessionRouting implements Extension, SessionEventListener {

    private final Router router;

    RwSplitSession(SharedSessionContractImplementor session, Router router, List<String> replicaNames,
                   boolean guardCache) {
        super(session, new SessionStatistics(replicaNames), guardCache,
                router.causal() == null ? null : router.causal().newSession(), router.intentSource());
        this.router = router;
    }

    public Router router() {
        return router;
    }

    @Override
    public void jdbcConnectionAcquisitionStart() {
        router.beginAcquisition(this);
    }

    @Override
    public void jdbcConnectionAcquisitionEnd() {
        router.endAcquisition();
    }

    @Override
    public void flushStart() {
        flushStarted();
    }

    @Override
    public void flushEnd(int numberOfEntities, int numberOfCollections) {
        flushEnded();
    }

    @Override
    public void partialFlushStart() {
        flushStarted();
    }

    @Override
    public void partialFlushEnd(int numberOfEntities, int numberOfCollections) {
        flushEnded();
    }
}
