package io.rwsplit.internal.hibernate;

import java.util.Map;

import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.resource.transaction.internal.TransactionCoordinatorBuilderInitiator;
import org.hibernate.resource.transaction.spi.TransactionCoordinatorBuilder;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.internal.config.RwSplitConfig;

/**
 * Builds the transaction coordinator builder exactly as Hibernate would and, when the unit routes, wraps it in a
 * {@link SessionTrackingCoordinatorBuilder}. Installed only on Hibernate releases without session extensions.
 */
final class SessionTrackingCoordinatorBuilderInitiator implements StandardServiceInitiator<TransactionCoordinatorBuilder> {

    @Override
    public Class<TransactionCoordinatorBuilder> getServiceInitiated() {
        return TransactionCoordinatorBuilder.class;
    }

    @Override
    public TransactionCoordinatorBuilder initiateService(Map<String, Object> settings, ServiceRegistryImplementor registry) {
        TransactionCoordinatorBuilder builder = TransactionCoordinatorBuilderInitiator.INSTANCE.initiateService(settings, registry);
        boolean routes = RwSplitConfig.isActive(settings) || RwSplitConfig.isMultiTenantActive(settings);
        return routes && !(builder instanceof SessionTrackingCoordinatorBuilder)
                ? new SessionTrackingCoordinatorBuilder(builder) : builder;
    }
}
