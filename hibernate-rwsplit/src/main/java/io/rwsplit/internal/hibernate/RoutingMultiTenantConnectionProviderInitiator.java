package io.rwsplit.internal.hibernate;

import java.util.Map;

import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.engine.jdbc.connections.internal.MultiTenantConnectionProviderInitiator;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.ConfigurationException;
import io.rwsplit.internal.config.RwSplitConfig;

/** Installs {@link RoutingMultiTenantConnectionProvider} when {@code hibernate.rwsplit.tenants} is set. */
@SuppressWarnings("rawtypes")
final class RoutingMultiTenantConnectionProviderInitiator implements StandardServiceInitiator<MultiTenantConnectionProvider> {

    @Override
    public Class<MultiTenantConnectionProvider> getServiceInitiated() {
        return MultiTenantConnectionProvider.class;
    }

    @Override
    public MultiTenantConnectionProvider<?> initiateService(Map<String, Object> settings, ServiceRegistryImplementor registry) {
        if (!RwSplitConfig.isMultiTenantActive(settings)) {
            return MultiTenantConnectionProviderInitiator.INSTANCE.initiateService(settings, registry);
        }
        try {
            return new RoutingMultiTenantConnectionProvider(settings);
        }
        catch (ConfigurationException e) {
            throw RoutingConnectionProviderInitiator.forHibernate(e);
        }
    }
}
