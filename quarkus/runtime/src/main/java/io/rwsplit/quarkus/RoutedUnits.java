package io.rwsplit.quarkus;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.inject.Default;
import jakarta.persistence.EntityManagerFactory;

import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.arc.Arc;
import io.quarkus.hibernate.orm.PersistenceUnit;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;

/**
 * The persistence units this extension routes (those given replicas), a bean for the readiness check and the meters:
 * each reports every routed unit, under the unit's name. Built once at run-time init from the validated
 * configuration; the listeners of the units read their plans from it.
 */
public final class RoutedUnits {

    /**
     * One routed unit.
     *
     * @param name       the persistence unit's name, {@code <default>} for the default one
     * @param dataSource the name of its datasource, the primary
     */
    public record Unit(String name, String dataSource) {

        /** Whether this is the default persistence unit. */
        public boolean isDefault() {
            return PersistenceUnitUtil.isDefaultPersistenceUnit(name);
        }

        /** The unit's {@code EntityManagerFactory} bean. */
        public EntityManagerFactory factory() {
            Annotation qualifier = isDefault() ? Default.Literal.INSTANCE : new PersistenceUnit.PersistenceUnitLiteral(name);
            return Arc.container().instance(EntityManagerFactory.class, qualifier).get();
        }

        /** The unit's datasource, the primary. */
        public AgroalDataSource primary() {
            return AgroalDataSourceUtil.dataSourceInstance(dataSource).get();
        }
    }

    private final Map<String, UnitPlan> plans;
    private final ReplicaPools pools;
    private final List<Unit> units;
    private final Map<String, String> dbKinds;

    /**
     * @param plans   the routed units' plans, by unit name, in the order to report them
     * @param pools   the pools of the replicas given as URLs, created as the units start
     * @param dbKinds every JDBC datasource's {@code db-kind}, by name
     */
    RoutedUnits(Map<String, UnitPlan> plans, ReplicaPools pools, Map<String, String> dbKinds) {
        this.plans = plans;
        this.pools = pools;
        this.dbKinds = dbKinds;
        this.units = plans.values().stream().map(p -> new Unit(p.unit(), p.dataSource())).toList();
    }

    /** The routed units, the default one first when it is routed. */
    public List<Unit> units() {
        return units;
    }

    /** The plan of {@code unit}, or {@code null} when it is not routed. */
    UnitPlan plan(String unit) {
        return plans.get(unit);
    }

    ReplicaPools pools() {
        return pools;
    }

    /** The {@code db-kind} of the datasource {@code name}, or null. */
    String dbKind(String name) {
        return name == null ? null : dbKinds.get(name);
    }
}
