package io.rwsplit.internal.hibernate;

import java.util.ArrayList;
import java.util.List;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.internal.route.Router;

/** The routers of a session factory: one for a single primary, one per tenant, none where we do not route. */
public final class FactoryRouters {

    private FactoryRouters() {
    }

    /** The routers behind {@code factory}'s connection providers, in configuration order; empty when we do not route. */
    public static List<Router> of(SessionFactoryImplementor factory) {
        ServiceRegistryImplementor registry = factory.getServiceRegistry();
        List<Router> routers = new ArrayList<>();
        if (registry.getService(ConnectionProvider.class) instanceof RoutingConnectionProvider p) {
            routers.add(p.router());
        }
        if (registry.getService(MultiTenantConnectionProvider.class) instanceof RoutingMultiTenantConnectionProvider p) {
            routers.addAll(p.routers().values());
        }
        return routers;
    }
}
