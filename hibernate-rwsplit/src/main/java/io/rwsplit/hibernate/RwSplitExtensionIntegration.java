package io.rwsplit.hibernate;

import org.hibernate.engine.extension.spi.ExtensionIntegration;
import org.hibernate.engine.extension.spi.ExtensionIntegrationContext;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

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
        RwSplitSession extension = new RwSplitSession(session, router, router.replicaNames());
        session.getEventListenerManager().addListener(extension);
        return extension;
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
