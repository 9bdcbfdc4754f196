package io.rwsplit.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.PrintWriter;
import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;


/** {@code quarkus.rwsplit.*} of one unit as the core's keys: only what is set, each replica's pool under its name. */
class QuarkusSettingsTest {

    @Test
    void withoutReplicasNothingIsHandedOver() {
        assertEquals(Map.of(), QuarkusSettings.of(UnitConfigs.unit(List.of(), List.of()), "<default>", Map.of(), "h2"));
    }

    @Test
    void eachReplicaIsHandedOverAsItsPoolUnderItsNameInOrderWithTheUnitsName() {
        DataSource first = new NamedDataSource();
        DataSource second = new NamedDataSource();
        Map<String, DataSource> replicas = new LinkedHashMap<>();
        replicas.put("replica1", first);
        replicas.put("replica-b", second);

        Map<String, Object> s = QuarkusSettings.of(UnitConfigs.unit(List.of("jdbc:h2:mem:r"), List.of("replica-b")),
                "orders", replicas, "h2");

        assertEquals(Map.of(
                "hibernate.rwsplit.replicas", "replica1 replica-b",
                "hibernate.rwsplit.replica.replica1.datasource", first,
                "hibernate.rwsplit.replica.replica-b.datasource", second,
                "hibernate.persistenceUnitName", "orders",
                "hibernate.rwsplit.max_lag", Duration.ofSeconds(5),
                "hibernate.rwsplit.lost_writes", "log",
                "hibernate.rwsplit.audit_sample", 1), s);
    }

    @Test
    void theLagProbeFollowsTheDatasourcesDbKindAsTheCoresAutoFollowsAUrl() {
        Map<String, DataSource> replicas = Map.of("replica1", new NamedDataSource());
        RwSplitRuntimeConfig.PersistenceUnit unit = UnitConfigs.unit(List.of("jdbc:mariadb://r/db"), List.of());
        assertEquals("heartbeat", QuarkusSettings.of(unit, "<default>", replicas, "mariadb").get("hibernate.rwsplit.lag_probe"));
        assertEquals("heartbeat", QuarkusSettings.of(unit, "<default>", replicas, "mysql").get("hibernate.rwsplit.lag_probe"));
        assertEquals("lsn", QuarkusSettings.of(unit, "<default>", replicas, "postgresql").get("hibernate.rwsplit.lag_probe"));
        assertEquals(null, QuarkusSettings.of(unit, "<default>", replicas, "h2").get("hibernate.rwsplit.lag_probe"),
                "the core's own choice");
    }

    @Test
    void theLoadBalancerIsHandedOverAsTheCoresSetting() {
        Map<String, Object> s = QuarkusSettings.of(UnitConfigs.unit(List.of("jdbc:h2:mem:r"), List.of(), "round_robin"),
                "<default>", Map.of("replica1", new NamedDataSource()), "h2");
        assertEquals("round_robin", s.get("hibernate.rwsplit.load_balancer"));
    }

    @Test
    void aValueTheCoreRefusesIsReportedUnderTheUnitsQuarkusKey() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> QuarkusSettings.of(
                UnitConfigs.unit(List.of("jdbc:h2:mem:r"), List.of(), "fastest"), "orders",
                Map.of("replica1", new NamedDataSource()), "h2"));
        assertEquals(java.util.Set.of("quarkus.rwsplit.\"orders\".load-balancer"), e.getConfigKeys());
        assertEquals("hibernate-rwsplit: invalid value 'fastest' for setting"
                + " 'quarkus.rwsplit.\"orders\".load-balancer': expected one of round_robin, weighted, least_lag,"
                + " least_in_flight, random, thread_affinity", e.getMessage());
    }

    /** A DataSource that is only an identity. */
    private static final class NamedDataSource implements DataSource {
        @Override public Connection getConnection() { throw new UnsupportedOperationException(); }
        @Override public Connection getConnection(String u, String p) { throw new UnsupportedOperationException(); }
        @Override public PrintWriter getLogWriter() { return null; }
        @Override public void setLogWriter(PrintWriter out) { }
        @Override public void setLoginTimeout(int seconds) { }
        @Override public int getLoginTimeout() { return 0; }
        @Override public Logger getParentLogger() { return Logger.getGlobal(); }
        @Override public <T> T unwrap(Class<T> iface) { throw new UnsupportedOperationException(); }
        @Override public boolean isWrapperFor(Class<?> iface) { return false; }
    }
}
