package io.rwsplit.quarkus.deployment;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;

/** The readiness check {@code hibernate-rwsplit}, only when the application has {@code quarkus-smallrye-health}. */
class HealthProcessor {

    @BuildStep
    void readinessCheck(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
        if (capabilities.isPresent(Capability.SMALLRYE_HEALTH)) {
            // by name: the class needs the MicroProfile Health API, an optional dependency of the runtime module
            beans.produce(AdditionalBeanBuildItem.unremovableOf("io.rwsplit.quarkus.health.RwSplitReadinessCheck"));
        }
    }
}
