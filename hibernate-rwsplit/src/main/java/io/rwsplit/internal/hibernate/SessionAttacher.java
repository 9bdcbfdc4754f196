package io.rwsplit.internal.hibernate;


import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.config.SettingsTable;
import io.rwsplit.internal.route.Router;

/**
 * Creates the {@link RwSplitSession} of each new session of a factory whose connections we route, and registers it
 * as the session's event listener; creates nothing elsewhere. Both ways of attaching it (a session extension on
 * Hibernate 7.4, {@link SessionTrackingCoordinatorBuilder} before) go through here.
 */
final class SessionAttacher {

    /** Builds the session object of the attaching path (the extension type on 7.4, the plain one before). */
    @FunctionalInterface
    interface Constructor<S extends RwSplitSession> {
        S create(SharedSessionContractImplementor session, Router router, boolean guardCache);
    }

    /** What a factory needs for each new session, looked up once per factory. */
    private record FactoryRouting(SessionFactoryImplementor factory, Router router,
                                  RoutingMultiTenantConnectionProvider multiTenant, boolean guardCache) {
    }

    /** The last factory seen: sessions of one factory skip the service lookups. Replaced wholesale. */
    private volatile FactoryRouting last;

    /** The new session's routing part, registered as its listener, or {@code null} when its factory does not route. */
    <S extends RwSplitSession> S attach(SharedSessionContractImplementor session, Constructor<S> constructor) {
        FactoryRouting routing = last;
        if (routing == null || routing.factory != session.getFactory()) {
            routing = lookUp(session);
            last = routing;
        }
        Router router = routing.multiTenant != null
                ? routing.multiTenant.router(session.getTenantIdentifierValue()) : routing.router;
        if (router == null) {
            return null;
        }
        S attached = constructor.create(session, router, routing.guardCache);
        session.getEventListenerManager().addListener(attached);
        return attached;
    }

    private static FactoryRouting lookUp(SharedSessionContractImplementor session) {
        SessionFactoryImplementor factory = session.getFactory();
        ServiceRegistryImplementor registry = factory.getServiceRegistry();
        if (factory.getSessionFactoryOptions().isMultiTenancyEnabled()) {
            MultiTenantConnectionProvider<?> mt = registry.getService(MultiTenantConnectionProvider.class);
            return new FactoryRouting(factory, null,
                    mt instanceof RoutingMultiTenantConnectionProvider routing ? routing : null, guardCache(session));
        }
        ConnectionProvider provider = registry.getService(ConnectionProvider.class);
        return new FactoryRouting(factory, provider instanceof RoutingConnectionProvider routing ? routing.router() : null,
                null, guardCache(session));
    }

    /** Whether entities read from replicas must stay out of the second-level cache (the default when it is on). */
    private static boolean guardCache(SharedSessionContractImplementor session) {
        if (!session.getFactory().getSessionFactoryOptions().isSecondLevelCacheEnabled()) {
            return false;
        }
        return !new Settings(session.getFactory().getProperties()).bool(SettingsTable.REPLICA_CACHE_PUTS);
    }
}
