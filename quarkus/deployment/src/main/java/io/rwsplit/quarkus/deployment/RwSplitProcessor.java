package io.rwsplit.quarkus.deployment;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Singleton;

import io.quarkus.agroal.spi.JdbcDataSourceBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.ShutdownContextBuildItem;
import io.quarkus.hibernate.orm.deployment.PersistenceUnitDescriptorBuildItem;
import io.quarkus.hibernate.orm.deployment.integration.HibernateOrmIntegrationRuntimeConfiguredBuildItem;
import io.quarkus.runtime.RuntimeValue;
import io.rwsplit.quarkus.RoutedUnits;
import io.rwsplit.quarkus.RwSplitRecorder;

/**
 * Build steps of the extension: every Hibernate ORM persistence unit gets the listener that routes it when its
 * {@code quarkus.rwsplit} keys give replicas (known at run time only).
 */
class RwSplitProcessor {

    private static final String FEATURE = "hibernate-rwsplit";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * Hands every (blocking) persistence unit the listener that, when Quarkus starts the unit, adds the core's
     * settings and initiators if the unit has replicas; validates {@code quarkus.rwsplit.*} against the units and
     * the datasources at run-time init, and makes the routed units a bean for the readiness check and the meters.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void routePersistenceUnits(RwSplitRecorder recorder, List<PersistenceUnitDescriptorBuildItem> units,
                               List<JdbcDataSourceBuildItem> jdbcDataSources, ShutdownContextBuildItem shutdown,
                               BuildProducer<HibernateOrmIntegrationRuntimeConfiguredBuildItem> integrations,
                               BuildProducer<SyntheticBeanBuildItem> beans) {
        Set<String> names = new HashSet<>();
        Map<String, String> unitDataSources = new HashMap<>();
        for (PersistenceUnitDescriptorBuildItem unit : units) {
            if (unit.isReactive()) {
                continue;   // Hibernate Reactive: no JDBC connection provider to wrap
            }
            names.add(unit.getPersistenceUnitName());
            unit.getConfig().getDataSource().ifPresent(ds -> unitDataSources.put(unit.getPersistenceUnitName(), ds));
        }
        Map<String, Boolean> jdbc = new HashMap<>();
        Map<String, String> dbKinds = new HashMap<>();
        for (JdbcDataSourceBuildItem ds : jdbcDataSources) {
            jdbc.put(ds.getName(), ds.isTransactionIntegrationEnabled());
            dbKinds.put(ds.getName(), ds.getDbKind());
        }
        RuntimeValue<RoutedUnits> routing = recorder.routing(names, unitDataSources, jdbc, dbKinds, shutdown);
        for (String unit : names) {
            integrations.produce(new HibernateOrmIntegrationRuntimeConfiguredBuildItem(FEATURE, unit)
                    .setInitListener(recorder.listener(routing, unit)));
        }
        beans.produce(SyntheticBeanBuildItem.configure(RoutedUnits.class)
                .scope(Singleton.class)
                .unremovable()
                .supplier(recorder.routedUnits(routing))
                .setRuntimeInit()
                .done());
    }
}
