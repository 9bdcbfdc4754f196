package io.rwsplit.hibernate;

import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.service.spi.ServiceContributor;

/**
 * Found through {@code META-INF/services}: installs initiators that wrap the connection provider when
 * (and only when) the {@code hibernate.rwsplit.*} settings ask for it.
 */
public final class RwSplitServiceContributor implements ServiceContributor {

    @Override
    public void contribute(StandardServiceRegistryBuilder builder) {
        builder.addInitiator(new RoutingConnectionProviderInitiator());
        builder.addInitiator(new RoutingMultiTenantConnectionProviderInitiator());
    }
}
