package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.ConfigurationException;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.config.Settings;

class HealthConfigTest {

    private static HealthConfig parse(Object... kv) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            map.put((String) kv[i], kv[i + 1]);
        }
        return HealthConfig.from(new Settings(map));
    }

    private static void rejected(String key, Object value, String expected) {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> parse(key, value));
        assertTrue(e.getMessage().contains(key) && e.getMessage().contains("'" + value + "'")
                && e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void defaults() {
        HealthConfig c = parse();
        assertEquals(HealthConfig.DEFAULTS, c);
        assertEquals(new HealthPolicy(2, 1_000_000, 1_000_000_000L), HealthPolicy.of(c));
    }

    @Test
    void readsEveryKey() {
        HealthConfig c = parse("hibernate.rwsplit.lag_probe", "GTID", "hibernate.rwsplit.probe_interval", "100ms",
                "hibernate.rwsplit.probe_timeout", "PT0.5S", "hibernate.rwsplit.max_lag", "0",
                "hibernate.rwsplit.failure_threshold", "3", "hibernate.rwsplit.recovery_period", "5s",
                "hibernate.rwsplit.heartbeat_table", "ops.heartbeat", "hibernate.rwsplit.primary_failure_threshold", 0,
                "hibernate.rwsplit.primary_cool_down", Duration.ofSeconds(30));
        assertEquals(new HealthConfig("gtid", Duration.ofMillis(100), Duration.ofMillis(500), Duration.ZERO, 3,
                Duration.ofSeconds(5), "ops.heartbeat", 0, Duration.ofSeconds(30)), c);
        assertEquals(0, HealthPolicy.of(c).maxLagMicros(), "0 = no lag limit");
    }

    @Test
    void rejectsBadValuesNamingKeyAndValue() {
        rejected("hibernate.rwsplit.lag_probe", "ping", "heartbeat");
        rejected("hibernate.rwsplit.probe_interval", "0", "positive");
        rejected("hibernate.rwsplit.probe_timeout", "soon", "duration");
        rejected("hibernate.rwsplit.max_lag", "-1s", "not negative");
        rejected("hibernate.rwsplit.failure_threshold", "0", "at least 1");
        rejected("hibernate.rwsplit.heartbeat_table", "hb; drop table x", "table name");
        rejected("hibernate.rwsplit.primary_failure_threshold", "-1", "at least 0");
        rejected("hibernate.rwsplit.primary_cool_down", "0", "positive");
    }

    @Test
    void autoMeansHeartbeatOnMariaDbAndMySqlUrlsElseReachability() {
        var maria = new io.rwsplit.internal.config.ReplicaConfig("a", "jdbc:mariadb://h/db", null, null, 1, 1, null);
        var mysql = new io.rwsplit.internal.config.ReplicaConfig("b", "jdbc:mysql://h/db", null, null, 1, 1, null);
        var h2 = new io.rwsplit.internal.config.ReplicaConfig("c", "jdbc:h2:mem:x", null, null, 1, 1, null);
        assertEquals("heartbeat", LagProbes.resolve("auto", java.util.List.of(maria, mysql)));
        assertEquals("reachability", LagProbes.resolve("auto", java.util.List.of(maria, h2)));
        assertEquals("gtid", LagProbes.resolve("gtid", java.util.List.of(h2)));
    }
}
