package io.rwsplit.quarkus;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.hibernate.boot.registry.StandardServiceInitiator;

import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.hibernate.orm.runtime.service.QuarkusConnectionProviderInitiator;
import io.rwsplit.internal.hibernate.RwSplitInitiators;

/**
 * Switches routing on for one persistence unit when Quarkus starts it. Quarkus builds the unit's service registry at
 * run time from its own initiator list and does not apply service contributors then, so the core's
 * {@code META-INF/services} registration never reaches it: the core's initiators come from here, wrapping Quarkus's
 * connection provider over Agroal. With no settings (no {@code quarkus.rwsplit.replicas}) it contributes nothing.
 */
final class RwSplitInitListener implements HibernateOrmIntegrationRuntimeInitListener {

    private final Map<String, Object> settings;

    /** @param settings the core's settings for the unit, empty when routing is off */
    RwSplitInitListener(Map<String, Object> settings) {
        this.settings = Map.copyOf(settings);
    }

    @Override
    public void contributeRuntimeProperties(BiConsumer<String, Object> propertyCollector) {
        settings.forEach(propertyCollector);
    }

    @Override
    public List<StandardServiceInitiator<?>> contributeServiceInitiators() {
        return settings.isEmpty() ? List.of() : RwSplitInitiators.around(QuarkusConnectionProviderInitiator.INSTANCE);
    }
}
