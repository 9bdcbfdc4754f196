package io.rwsplit.quarkus;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import org.hibernate.boot.registry.StandardServiceInitiator;

import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.hibernate.orm.runtime.service.QuarkusConnectionProviderInitiator;
import io.rwsplit.internal.hibernate.RwSplitInitiators;

/**
 * Switches routing on for one persistence unit when Quarkus starts it. Quarkus builds the unit's service registry at
 * run time from its own initiator list and does not apply service contributors then, so the core's
 * {@code META-INF/services} registration never reaches it: the core's initiators come from here, wrapping Quarkus's
 * connection provider over Agroal. A unit without replicas gets nothing.
 */
final class RwSplitInitListener implements HibernateOrmIntegrationRuntimeInitListener {

    private final boolean routed;
    private final Supplier<Map<String, Object>> settings;

    /**
     * @param routed   whether the unit has replicas
     * @param settings the core's settings for the unit, asked once, when the unit starts (the replicas' pools are
     *                 datasource beans, ready by then)
     */
    RwSplitInitListener(boolean routed, Supplier<Map<String, Object>> settings) {
        this.routed = routed;
        this.settings = settings;
    }

    /** The listener of a unit that is not routed. */
    static RwSplitInitListener off() {
        return new RwSplitInitListener(false, Map::of);
    }

    @Override
    public void contributeRuntimeProperties(BiConsumer<String, Object> propertyCollector) {
        if (routed) {
            settings.get().forEach(propertyCollector);
        }
    }

    @Override
    public List<StandardServiceInitiator<?>> contributeServiceInitiators() {
        return routed ? RwSplitInitiators.around(QuarkusConnectionProviderInitiator.INSTANCE) : List.of();
    }
}
