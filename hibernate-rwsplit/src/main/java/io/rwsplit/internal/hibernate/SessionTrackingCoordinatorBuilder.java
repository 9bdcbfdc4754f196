package io.rwsplit.internal.hibernate;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.resource.jdbc.spi.PhysicalConnectionHandlingMode;
import org.hibernate.resource.transaction.spi.DdlTransactionIsolator;
import org.hibernate.resource.transaction.spi.TransactionCoordinator;
import org.hibernate.resource.transaction.spi.TransactionCoordinatorBuilder;
import org.hibernate.resource.transaction.spi.TransactionCoordinatorOwner;
import org.hibernate.service.spi.Configurable;
import org.hibernate.service.spi.ServiceRegistryAwareService;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.service.spi.Startable;
import org.hibernate.service.spi.Stoppable;
import org.hibernate.tool.schema.internal.exec.JdbcContext;

import io.rwsplit.internal.route.Router;

/**
 * Hibernate 7.2 and 7.3, which have no session extensions: the unit's {@link TransactionCoordinatorBuilder},
 * wrapped. Hibernate asks it for a transaction coordinator once in every session's constructor (after the
 * session's event listeners exist), passing the session itself; that is where the session's
 * {@link RwSplitSession} is attached, and kept until the session ends so that {@link RwSplitSessions} finds it.
 * Everything else is the wrapped builder's.
 */
final class SessionTrackingCoordinatorBuilder
        implements TransactionCoordinatorBuilder, Configurable, ServiceRegistryAwareService, Startable, Stoppable {

    private final TransactionCoordinatorBuilder delegate;
    private final SessionAttacher attacher = new SessionAttacher();
    /**
     * The open sessions of this registry's factories that route: added at construction, removed at {@code end()}.
     * Both sides are weak, so a session the application drops without closing it leaves the map with its routing
     * part (the session holds that part strongly as one of its event listeners, so it lives as long as the
     * session). Read only by the {@code RwSplit} facade, never on the routing path: a lock is fine here.
     */
    private final Map<SharedSessionContractImplementor, WeakReference<RwSplitSession>> sessions =
            Collections.synchronizedMap(new WeakHashMap<>());
    private final SessionAttacher.Constructor<RwSplitSession> tracked = this::tracked;

    SessionTrackingCoordinatorBuilder(TransactionCoordinatorBuilder delegate) {
        this.delegate = delegate;
    }

    TransactionCoordinatorBuilder delegate() {
        return delegate;
    }

    /** The session's routing part, or {@code null} when it has none (its factory does not route, or it is closed). */
    RwSplitSession find(SharedSessionContractImplementor session) {
        WeakReference<RwSplitSession> routing = sessions.get(session);
        return routing == null ? null : routing.get();
    }

    /** How many sessions the map holds (sessions dropped unclosed leave it once collected). */
    int trackedSessions() {
        return sessions.size();
    }

    @Override
    public TransactionCoordinator buildTransactionCoordinator(TransactionCoordinatorOwner owner, Options options) {
        TransactionCoordinator coordinator = delegate.buildTransactionCoordinator(owner, options);
        if (options instanceof SharedSessionContractImplementor session) {
            attacher.attach(session, tracked);
        }
        return coordinator;
    }

    private RwSplitSession tracked(SharedSessionContractImplementor session, Router router, boolean guardCache) {
        RwSplitSession routing = new Tracked(session, router, guardCache);
        sessions.put(session, new WeakReference<>(routing));
        return routing;
    }

    /** A session's routing part that leaves the map when the session ends. */
    private final class Tracked extends RwSplitSession {

        Tracked(SharedSessionContractImplementor session, Router router, boolean guardCache) {
            super(session, router, guardCache);
        }

        @Override
        public void end() {
            sessions.remove(session());
        }
    }

    @Override
    public boolean isJta() {
        return delegate.isJta();
    }

    @Override
    public PhysicalConnectionHandlingMode getDefaultConnectionHandlingMode() {
        return delegate.getDefaultConnectionHandlingMode();
    }

    @Override
    public DdlTransactionIsolator buildDdlTransactionIsolator(JdbcContext jdbcContext) {
        return delegate.buildDdlTransactionIsolator(jdbcContext);
    }

    // ------------------------------------------------------------------ the service lifecycle, passed on

    @Override
    public void configure(Map<String, Object> configurationValues) {
        if (delegate instanceof Configurable configurable) {
            configurable.configure(configurationValues);
        }
    }

    @Override
    public void injectServices(ServiceRegistryImplementor serviceRegistry) {
        if (delegate instanceof ServiceRegistryAwareService aware) {
            aware.injectServices(serviceRegistry);
        }
    }

    @Override
    public void start() {
        if (delegate instanceof Startable startable) {
            startable.start();
        }
    }

    @Override
    public void stop() {
        if (delegate instanceof Stoppable stoppable) {
            stoppable.stop();
        }
    }
}
