package io.rwsplit.quarkus.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManagerFactory;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.runtime.StartupEvent;
import io.rwsplit.metrics.RwSplitMetrics;
import io.rwsplit.quarkus.RwSplitRuntimeConfig;

/**
 * The core's {@link RwSplitMetrics} of the default persistence unit, registered when {@code quarkus-micrometer} is
 * present and bound at startup only when routing is on ({@code quarkus.rwsplit.replicas} set). Its meters carry the
 * tag Quarkus puts on Hibernate ORM's own, {@code entityManagerFactory=<default>}, so that both read side by side.
 */
@Singleton
public class RwSplitMeterBinder {

    static final String PERSISTENCE_UNIT_TAG = "entityManagerFactory";

    void bind(@Observes StartupEvent start, RwSplitRuntimeConfig config, EntityManagerFactory factory,
              MeterRegistry registry) {
        if (config.replicas().isPresent()) {
            new RwSplitMetrics(factory, PERSISTENCE_UNIT_TAG, PersistenceUnitUtil.DEFAULT_PERSISTENCE_UNIT_NAME)
                    .bindTo(registry);
        }
    }
}
