package io.rwsplit.quarkus;

import static io.rwsplit.quarkus.UnitConfigs.config;
import static io.rwsplit.quarkus.UnitConfigs.unit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;

/** Which units are routed, and the names the configuration gives, checked against the application's. */
class UnitPlanTest {

    private static final String DEFAULT = "<default>";
    private static final Map<String, String> UNITS = Map.of(DEFAULT, "<default>", "orders", "orders");
    private static final Map<String, Boolean> DATASOURCES = Map.of("<default>", true, "orders", true,
            "replica-a", false, "replica-b", false, "enlisted", true);

    @Test
    void unitsWithReplicasAreRoutedOnTheirOwnDatasourceAndOthersAreNot() {
        List<UnitPlan> plans = UnitPlan.of(config(
                DEFAULT, unit(List.of(), List.of()),
                "orders", unit(List.of("jdbc:h2:mem:o1", " jdbc:h2:mem:o2 "), List.of("replica-b"))), UNITS, DATASOURCES);

        assertEquals(1, plans.size());
        UnitPlan orders = plans.get(0);
        assertEquals("orders", orders.unit());
        assertEquals("orders", orders.dataSource());
        assertEquals(List.of("jdbc:h2:mem:o1", "jdbc:h2:mem:o2"), orders.urls());
        assertEquals(List.of("replica1", "replica2", "replica-b"), orders.replicaNames());
    }

    @Test
    void aKeyOfAUnitThatDoesNotExistFailsNamingTheKey() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> UnitPlan.of(
                config("invoices", unit(List.of("jdbc:h2:mem:i"), List.of())), UNITS, DATASOURCES));
        assertTrue(e.getMessage().startsWith("quarkus.rwsplit.\"invoices\".replicas configures the persistence unit"
                + " 'invoices', which does not exist"), e.getMessage());
        assertEquals(java.util.Set.of("quarkus.rwsplit.\"invoices\".replicas"), e.getConfigKeys());
    }

    @Test
    void aUnitThatDoesNotExistIsNamedByTheKeyItSetsAlsoWhenThatIsTheAuditSample() {
        RwSplitRuntimeConfig.PersistenceUnit onlyAudit = new UnitConfigs.NothingSet() {
            @Override public java.util.OptionalInt auditSample() { return java.util.OptionalInt.of(1); }
        };
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> UnitPlan.of(
                config("invoices", onlyAudit), UNITS, DATASOURCES));
        assertTrue(e.getMessage().startsWith("quarkus.rwsplit.\"invoices\".audit-sample configures the persistence unit"
                + " 'invoices'"), e.getMessage());

        RwSplitRuntimeConfig.PersistenceUnit onlyLagProbe = new UnitConfigs.NothingSet() {
            @Override public java.util.Optional<String> lagProbe() { return java.util.Optional.of("heartbeat"); }
        };
        e = assertThrows(ConfigurationException.class, () -> UnitPlan.of(config("invoices", onlyLagProbe), UNITS,
                DATASOURCES));
        assertEquals(java.util.Set.of("quarkus.rwsplit.\"invoices\".lag-probe"), e.getConfigKeys());

        e = assertThrows(ConfigurationException.class, () -> UnitPlan.of(config("invoices", new UnitConfigs.NothingSet()),
                UNITS, DATASOURCES));
        assertTrue(e.getMessage().startsWith("quarkus.rwsplit.\"invoices\".* configures the persistence unit"), e.getMessage());
    }

    @Test
    void aReplicaDatasourceThatIsNotConfiguredFailsNamingTheKeyAndTheValue() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> UnitPlan.of(
                config(DEFAULT, unit(List.of(), List.of("replica-a", "replica-x"))), UNITS, DATASOURCES));
        assertTrue(e.getMessage().startsWith("quarkus.rwsplit.replica-datasources=replica-a,replica-x: 'replica-x':"
                + " no datasource of that name is configured"), e.getMessage());
    }

    @Test
    void aReplicaDatasourceInJtaTransactionsOrThePrimaryItselfFails() {
        ConfigurationException enlisted = assertThrows(ConfigurationException.class, () -> UnitPlan.of(
                config("orders", unit(List.of(), List.of("enlisted"))), UNITS, DATASOURCES));
        assertTrue(enlisted.getMessage().contains("quarkus.datasource.\"enlisted\".jdbc.transactions=disabled"),
                enlisted.getMessage());
        ConfigurationException primary = assertThrows(ConfigurationException.class, () -> UnitPlan.of(
                config("orders", unit(List.of(), List.of("orders"))), UNITS, DATASOURCES));
        assertTrue(primary.getMessage().startsWith("quarkus.rwsplit.\"orders\".replica-datasources=orders: 'orders':"
                + " it is the persistence unit's own datasource"), primary.getMessage());
    }

    @Test
    void aReplicaNameGivenTwiceFails() {
        Map<String, Boolean> withReplica1 = Map.of("<default>", true, "replica1", false);
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> UnitPlan.of(
                config(DEFAULT, unit(List.of("jdbc:h2:mem:r"), List.of("replica1"))), UNITS, withReplica1));
        assertTrue(e.getMessage().contains("'replica1': the replica name 'replica1' is given twice"), e.getMessage());
    }
}
