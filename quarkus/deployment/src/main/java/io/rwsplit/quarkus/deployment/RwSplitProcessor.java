package io.rwsplit.quarkus.deployment;

import java.util.List;

import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.hibernate.orm.deployment.PersistenceUnitDescriptorBuildItem;
import io.quarkus.hibernate.orm.deployment.integration.HibernateOrmIntegrationRuntimeConfiguredBuildItem;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.rwsplit.quarkus.RwSplitRecorder;

/** Build steps of the extension: routing is attached to the default persistence unit, configured at run time. */
class RwSplitProcessor {

    private static final String FEATURE = "hibernate-rwsplit";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * Hands the default persistence unit the listener that, when Quarkus starts the unit, adds the core's settings
     * and initiators (only if {@code quarkus.rwsplit.replicas} is set). Other persistence units are not routed yet.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void routeTheDefaultPersistenceUnit(RwSplitRecorder recorder, List<PersistenceUnitDescriptorBuildItem> units,
                                        BuildProducer<HibernateOrmIntegrationRuntimeConfiguredBuildItem> integrations) {
        boolean hasDefaultUnit = units.stream()
                .anyMatch(u -> PersistenceUnitUtil.isDefaultPersistenceUnit(u.getPersistenceUnitName()));
        if (hasDefaultUnit) {
            integrations.produce(new HibernateOrmIntegrationRuntimeConfiguredBuildItem(FEATURE,
                    PersistenceUnitUtil.DEFAULT_PERSISTENCE_UNIT_NAME).setInitListener(recorder.defaultUnitListener()));
        }
    }
}
