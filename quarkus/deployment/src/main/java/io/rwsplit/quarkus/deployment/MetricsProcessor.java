package io.rwsplit.quarkus.deployment;

import java.util.Optional;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;

/**
 * The Micrometer meters of every routed persistence unit, only when the application has {@code quarkus-micrometer}.
 * Asked as Hibernate ORM's own metrics ask it: Quarkus has no Micrometer capability of its own
 * ({@code quarkus-micrometer} provides {@code io.quarkus.metrics}), its build item says which API the metrics speak.
 */
class MetricsProcessor {

    @BuildStep
    void meters(Optional<MetricsCapabilityBuildItem> metrics, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (metrics.isPresent() && metrics.get().metricsSupported(MetricsFactory.MICROMETER)) {
            // by name: the class needs Micrometer, an optional dependency of the runtime module
            beans.produce(AdditionalBeanBuildItem.unremovableOf("io.rwsplit.quarkus.metrics.RwSplitMeterBinder"));
        }
    }
}
