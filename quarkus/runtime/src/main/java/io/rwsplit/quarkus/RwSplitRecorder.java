package io.rwsplit.quarkus;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import javax.sql.DataSource;

import jakarta.transaction.TransactionSynchronizationRegistry;

import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.rwsplit.RwSplitSettings;

/** Runs at run-time init, before Quarkus starts the persistence units: the composition root of the extension. */
@Recorder
public class RwSplitRecorder {

    private final RuntimeValue<RwSplitRuntimeConfig> config;

    public RwSplitRecorder(RuntimeValue<RwSplitRuntimeConfig> config) {
        this.config = config;
    }

    /**
     * Validates {@code quarkus.rwsplit.*} against the application's persistence units and datasources (a bad name
     * fails startup here, naming the key and the value) and decides which units are routed. The replica pools made
     * for URLs are closed when the application stops, after Hibernate ORM closed the units.
     *
     * @param units       every persistence unit of the application
     * @param dataSources the datasource of each unit that has one, by unit name
     * @param jdbc        every JDBC datasource, by name, and whether it takes part in JTA transactions
     * @param dbKinds     every JDBC datasource's {@code db-kind}, by name
     */
    public RuntimeValue<RoutedUnits> routing(Set<String> units, Map<String, String> dataSources,
                                            Map<String, Boolean> jdbc, Map<String, String> dbKinds,
                                            ShutdownContext shutdown) {
        Map<String, String> unitDataSources = new HashMap<>();
        units.forEach(unit -> unitDataSources.put(unit, dataSources.get(unit)));
        Map<String, UnitPlan> plans = new LinkedHashMap<>();
        UnitPlan.of(config.getValue(), unitDataSources, jdbc).stream()
                .sorted(Comparator.comparing((UnitPlan p) -> !PersistenceUnitUtil.isDefaultPersistenceUnit(p.unit()))
                        .thenComparing(UnitPlan::unit))
                .forEach(plan -> plans.put(plan.unit(), plan));
        ReplicaPools pools = new ReplicaPools();
        shutdown.addLastShutdownTask(pools::close);
        return new RuntimeValue<>(new RoutedUnits(plans, pools, Map.copyOf(dbKinds)));
    }

    /** The routed units, as a bean for the readiness check and the meters. */
    public Supplier<RoutedUnits> routedUnits(RuntimeValue<RoutedUnits> routing) {
        RoutedUnits units = routing.getValue();
        return () -> units;
    }

    /**
     * The listener of {@code unit}: when Quarkus starts the unit, the core's settings from its
     * {@code quarkus.rwsplit} keys, its replicas' pools, and Quarkus's JTA {@link TransactionSynchronizationRegistry}
     * as the transaction status. Quarkus runs every Hibernate ORM transaction under JTA with
     * {@code hibernate.connection.provider_disables_autocommit=true}, so no {@code setAutoCommit(false)} marks a
     * transaction: the registry is how routing keeps every JTA transaction on the primary (unless it was begun under
     * replica intent). Never guessed from the statements.
     */
    public HibernateOrmIntegrationRuntimeInitListener listener(RuntimeValue<RoutedUnits> routing, String unit) {
        RoutedUnits units = routing.getValue();
        UnitPlan plan = units.plan(unit);
        if (plan == null) {
            return RwSplitInitListener.off();
        }
        return new RwSplitInitListener(true, () -> settings(plan, units.pools(), units.dbKind(plan.dataSource())));
    }

    private static Map<String, Object> settings(UnitPlan plan, ReplicaPools pools, String dbKind) {
        Map<String, Object> settings = new HashMap<>(QuarkusSettings.of(plan.config(), plan.unit(), replicas(plan, pools),
                dbKind));
        settings.put(RwSplitSettings.TRANSACTION_STATUS,
                Arc.container().instance(TransactionSynchronizationRegistry.class).get());
        // @ReadReplica / @UsePrimary / @ReadConsistency on CDI beans (the interceptors of this extension)
        settings.put(RwSplitSettings.INTENT_SOURCE, new ArcIntentSource());
        // quarkus.rwsplit.web.*: the cookie's key as token_secret, and the Quarkus REST request scope (after the annotations)
        WebSettings.addTo(settings);
        return settings;
    }

    /** The unit's replicas by name: a new Agroal pool per URL, then the named datasources' own pools. */
    private static Map<String, DataSource> replicas(UnitPlan plan, ReplicaPools pools) {
        Map<String, DataSource> replicas = new LinkedHashMap<>();
        List<String> urls = plan.urls();
        if (!urls.isEmpty()) {
            AgroalDataSource primary = AgroalDataSourceUtil.dataSourceInstance(plan.dataSource()).get();
            for (int i = 0; i < urls.size(); i++) {
                String name = UnitPlan.urlReplicaName(i);
                replicas.put(name, pools.create(primary, urls.get(i), plan.unit(), name));
            }
        }
        for (String name : plan.replicaDataSources()) {
            AgroalDataSource pool = AgroalDataSourceUtil.dataSourceIfActive(name).orElseThrow(() -> {
                String key = UnitPlan.key(plan.unit(), "replica-datasources");
                return new ConfigurationException(key + "=" + String.join(",", plan.replicaDataSources()) + ": the"
                        + " datasource '" + name + "' is not active", Set.of(key));
            });
            // the pool itself, not its CDI proxy: the core keeps it for the unit's life
            replicas.put(name, ClientProxy.unwrap(pool));
        }
        return replicas;
    }
}
