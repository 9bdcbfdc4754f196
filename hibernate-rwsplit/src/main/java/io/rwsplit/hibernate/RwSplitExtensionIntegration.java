package io.rwsplit.hibernate;

import org.hibernate.engine.extension.spi.ExtensionIntegration;
import org.hibernate.engine.extension.spi.ExtensionIntegrationContext;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.RwSplitSettings;
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

    @Override
    public RwSplitSession createExtension(ExtensionIntegrationContext context) {
        SharedSessionContractImplementor session = context.getSession();
        Router router = routerOf(session);
        if (router == null) {
            return null;
        }
        RwSplitSession extension = new RwSplitSession(session, router, router.replicaNames(), guardCache(session));
        session.getEventListenerManager().addListener(extension);
        return extension;
    }

    /** Whether entities read from replicas must stay out of the second-level cache (the default when it is on). */
    private static boolean guardCache(SharedSessionContractImplementor session) {
        if (!session.getFactory().getSessionFactoryOptions().isSecondLevelCacheEnabled()) {
            return false;
        }
        Object puts = session.getFactory().getProperties().get(RwSplitSettings.REPLICA_CACHE_PUTS);
        return puts == null || !Boolean.parseBoolean(puts.toString().trim());
    }

    private static Router routerOf(SharedSessionContractImplementor session) {
        ServiceRegistryImplementor registry = session.getFactory().getServiceRegistry();
        if (session.getFactory().getSessionFactoryOptions().isMultiTenancyEnabled()) {
            MultiTenantConnectionProvider<?> mt = registry.getService(MultiTenantConnectionProvider.class);
            if (mt instanceof RoutingMultiTenantConnectionProvider routing) {
                return routing.router(session.getTenantIdentifierValue());
            }
            return null;
        }
        ConnectionProvider provider = registry.getService(ConnectionProvider.class);
        return provider instanceof RoutingConnectionProvider routing ? routing.router() : null;
    }
}
