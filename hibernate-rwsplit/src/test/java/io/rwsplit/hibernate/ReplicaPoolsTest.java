package io.rwsplit.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.config.RwSplitConfig;
import io.rwsplit.spi.Clock;

/**
 * The replica pools the module builds bound the driver's connect by the pool's own {@code connectionTimeout}, in the
 * driver's units, unless the user set the driver's connect timeout; the socket stays unbounded (a long report runs).
 */
class ReplicaPoolsTest {

    private static Properties driverProperties(RwSplitConfig config, int replica) {
        try (ReplicaPools pools = ReplicaPools.build("pools", config, Clock.SYSTEM, null)) {
            return ((HikariDataSource) pools.replicaSet().nodes().get(replica).dataSource()).getDataSourceProperties();
        }
    }

    @Test
    void replicaPoolsConnectWithinThePoolsConnectionTimeoutInTheDriversUnits() {
        RwSplitConfig config = RwSplitConfig.from(Map.of(
                "hibernate.rwsplit.replicas", "m=jdbc:mariadb://127.0.0.1:1/app p=jdbc:postgresql://127.0.0.1:1/app",
                "hibernate.rwsplit.pool.connectionTimeout", "2500"));
        Properties mariaDb = driverProperties(config, 0);
        assertEquals("2500", mariaDb.getProperty("connectTimeout"));
        assertNull(mariaDb.getProperty("socketTimeout"));
        Properties pgjdbc = driverProperties(config, 1);
        assertEquals("3", pgjdbc.getProperty("connectTimeout"), "whole seconds, rounded up");
        assertEquals("3", pgjdbc.getProperty("loginTimeout"));
        assertNull(pgjdbc.getProperty("socketTimeout"));
    }

    @Test
    void theUsersOwnConnectTimeoutWins() {
        RwSplitConfig inUrl = RwSplitConfig.from(Map.of(
                "hibernate.rwsplit.replicas", "m=jdbc:mariadb://127.0.0.1:1/app?connectTimeout=9000"));
        assertNull(driverProperties(inUrl, 0).getProperty("connectTimeout"), "set in the URL: the driver reads it there");
        RwSplitConfig asProperty = RwSplitConfig.from(Map.of(
                "hibernate.rwsplit.replicas", "p=jdbc:postgresql://127.0.0.1:1/app",
                "hibernate.rwsplit.pool.dataSource.connectTimeout", "20"));
        assertEquals("20", driverProperties(asProperty, 0).getProperty("connectTimeout"), "set as a pool property");
        assertEquals("2", driverProperties(asProperty, 0).getProperty("loginTimeout"),
                "from the default 2 s connectionTimeout");
    }
}
