package io.rwsplit.internal.hibernate;

import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.service.spi.ServiceContributor;

/**
 * Found through {@code META-INF/services}: installs initiators that wrap the connection provider when
 * (and only when) the {@code hibernate.rwsplit.*} settings ask for it, and, on Hibernate releases without
 * session extensions (7.2, 7.3), the one that attaches each session's routing part instead
 * (see {@link RwSplitSessions}).
 */
public final class RwSplitServiceContributor implements ServiceContributor {

    @Override
    public void contribute(StandardServiceRegistryBuilder builder) {
        builder.addInitiator(new RoutingConnectionProviderInitiator());
        builder.addInitiator(new RoutingMultiTenantConnectionProviderInitiator());
        if (!RwSplitSessions.sessionExtensions()) {
            builder.addInitiator(new SessionTrackingCoordinatorBuilderInitiator());
        }
    }
}
