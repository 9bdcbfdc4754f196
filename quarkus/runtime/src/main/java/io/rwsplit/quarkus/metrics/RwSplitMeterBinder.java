package io.rwsplit.quarkus.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.rwsplit.metrics.RwSplitMetrics;
import io.rwsplit.quarkus.RoutedUnits;

/**
 * The core's {@link RwSplitMetrics} of every routed persistence unit, registered when {@code quarkus-micrometer} is
 * present and bound at startup. Each unit's meters carry the tag Quarkus puts on Hibernate ORM's own,
 * {@code entityManagerFactory=<unit name>} ({@code <default>} for the default unit), so that both read side by side
 * and two units never collide.
 */
@Singleton
public class RwSplitMeterBinder {

    static final String PERSISTENCE_UNIT_TAG = "entityManagerFactory";

    void bind(@Observes StartupEvent start, RoutedUnits routed, MeterRegistry registry) {
        for (RoutedUnits.Unit unit : routed.units()) {
            new RwSplitMetrics(unit.factory(), PERSISTENCE_UNIT_TAG, unit.name()).bindTo(registry);
        }
    }
}
