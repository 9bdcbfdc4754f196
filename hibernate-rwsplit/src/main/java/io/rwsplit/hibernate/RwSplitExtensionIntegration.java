package io.rwsplit.hibernate;

import org.hibernate.engine.extension.spi.ExtensionIntegration;
import org.hibernate.engine.extension.spi.ExtensionIntegrationContext;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.config.Settings;
import io.rwsplit.config.SettingsTable;
import io.rwsplit.route.Router;

/**
 * Attaches a {@link RwSplitSession} to every session of a factory whose connections we route; attaches
 * nothing (a {@code null} extension) elsewhere. Found through {@code META-INF/services}.
 */
public final class RwSplitExtensionIntegration implements ExtensionIntegration<RwSplitSession> {

    @Override
    public Class<RwSplitSession> getExtensionType() {
        return RwSplitSession.class;
    }

    /** What a factory needs for each new session, looked up once per factory. */
    private record FactoryRouting(SessionFactoryImplementor factory, Router router,
                                  RoutingMultiTenantConnectionProvider multiTenant, boolean guardCache) {
    }

    /** The last factory seen: sessions of one factory skip the service lookups. Replaced wholesale. */
    private volatile FactoryRouting last;

    @Override
    public RwSplitSession createExtension(ExtensionIntegrationContext context) {
        SharedSessionContractImplementor session = context.getSession();
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
        RwSplitSession extension = new RwSplitSession(session, router, router.replicaNames(), routing.guardCache);
        session.getEventListenerManager().addListener(extension);
        return extension;
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
