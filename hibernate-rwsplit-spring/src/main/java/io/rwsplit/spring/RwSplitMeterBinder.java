package io.rwsplit.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.rwsplit.metrics.RwSplitMetrics;

/**
 * Binds the core's {@link RwSplitMetrics} of every persistence unit with hibernate-rwsplit active, tagged
 * {@code entityManagerFactory=<unit>} as Spring Boot tags Hibernate's own meters.
 */
final class RwSplitMeterBinder implements MeterBinder {

    private final PersistenceUnits units;

    RwSplitMeterBinder(PersistenceUnits units) {
        this.units = units;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        units.active().forEach((name, factory) ->
                new RwSplitMetrics(factory, "entityManagerFactory", name).bindTo(registry));
    }
}
