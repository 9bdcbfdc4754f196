package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.internal.config.RwSplitConfig;
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
        assertEquals("300000", mariaDb.getProperty("socketTimeout"), "MariaDB Connector/J cannot abort a read in flight:"
                + " its reads are bounded by a 5 min socket timeout");
        Properties pgjdbc = driverProperties(config, 1);
        assertEquals("3", pgjdbc.getProperty("connectTimeout"), "whole seconds, rounded up");
        assertEquals("3", pgjdbc.getProperty("loginTimeout"));
        assertNull(pgjdbc.getProperty("socketTimeout"), "pgjdbc's abort closes the socket: no socket timeout");
    }

    /**
     * What spares a read outside a transaction the driver's {@code getAutoCommit()}: the pools the module builds lend
     * only autocommit connections, also one a read-only transaction switched off before it went back (HikariCP sets
     * it back), whatever the pool properties say.
     */
    @Test
    void replicaPoolsLendOnlyAutocommitConnectionsAlsoAfterATransactionSwitchedItOff() throws java.sql.SQLException {
        RwSplitConfig config = RwSplitConfig.from(Map.of(
                "hibernate.rwsplit.replicas", "r=jdbc:h2:mem:lends_autocommit;DB_CLOSE_DELAY=-1",
                "hibernate.rwsplit.pool.maximumPoolSize", "1",
                "hibernate.rwsplit.pool.autoCommit", "false"));
        try (ReplicaPools pools = ReplicaPools.build("pools", config, Clock.SYSTEM, null)) {
            io.rwsplit.internal.replica.ReplicaNode node = pools.replicaSet().nodes().get(0);
            org.junit.jupiter.api.Assertions.assertTrue(node.pool().lendsAutoCommit());
            try (java.sql.Connection c = node.dataSource().getConnection()) {
                org.junit.jupiter.api.Assertions.assertTrue(c.getAutoCommit());
                c.setAutoCommit(false);   // a read-only transaction's
            }
            try (java.sql.Connection c = node.dataSource().getConnection()) {
                org.junit.jupiter.api.Assertions.assertTrue(c.getAutoCommit(), "the one connection, set back on return");
            }
        }
    }

    /**
     * An application's own pool as a replica: routing makes its connections read-only for reads unless the pool lends
     * them so already, which a HikariCP pool set {@code readOnly} is known to do (no question, no switch per read).
     */
    @Test
    void anApplicationsHikariPoolSetReadOnlyIsNotSwitchedPerReadOtherPoolsAre() {
        try (HikariDataSource readOnly = new HikariDataSource(); HikariDataSource writable = new HikariDataSource()) {
            readOnly.setJdbcUrl("jdbc:h2:mem:app_read_only;DB_CLOSE_DELAY=-1");
            readOnly.setReadOnly(true);
            writable.setJdbcUrl("jdbc:h2:mem:app_writable;DB_CLOSE_DELAY=-1");
            RwSplitConfig config = RwSplitConfig.from(Map.of("hibernate.rwsplit.replicas", "ro rw",
                    "hibernate.rwsplit.replica.ro.datasource", readOnly,
                    "hibernate.rwsplit.replica.rw.datasource", writable));
            try (ReplicaPools pools = ReplicaPools.build("pools", config, Clock.SYSTEM, null)) {
                java.util.List<io.rwsplit.internal.replica.ReplicaNode> nodes = pools.replicaSet().nodes();
                assertEquals("ro", nodes.get(0).name());
                org.junit.jupiter.api.Assertions.assertFalse(nodes.get(0).setReadOnly(), "lent read-only by its configuration");
                org.junit.jupiter.api.Assertions.assertTrue(nodes.get(1).setReadOnly(), "lent writable: switched for each read");
            }
        }
    }

    @Test
    void aQueryTimeoutLongerThanTheMariaDbReadTimeoutRaisesIt() {
        RwSplitConfig config = RwSplitConfig.from(Map.of("hibernate.rwsplit.replicas", "m=jdbc:mariadb://127.0.0.1:1/app"));
        try (ReplicaPools pools = ReplicaPools.build("pools", config, Clock.SYSTEM, null, java.time.Duration.ofMinutes(10))) {
            // 10 min, plus failure_threshold 2 x (probe_timeout 1 s + probe_interval 250 ms)
            assertEquals("602500", ((HikariDataSource) pools.replicaSet().nodes().get(0).dataSource())
                    .getDataSourceProperties().getProperty("socketTimeout"));
        }
        RwSplitConfig own = RwSplitConfig.from(Map.of("hibernate.rwsplit.replicas",
                "m=jdbc:mariadb://127.0.0.1:1/app?socketTimeout=1000"));
        assertNull(driverProperties(own, 0).getProperty("socketTimeout"), "the URL's own");
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

    @Test
    void theUnitsQueryTimeoutIsReadInMillisecondsAndABadOneIsRefusedByName() {
        assertEquals(java.time.Duration.ofMinutes(10),
                UnitSettings.read(Map.of("jakarta.persistence.query.timeout", "600000")).queryTimeout());
        assertEquals(java.time.Duration.ofSeconds(2),
                UnitSettings.read(Map.of("javax.persistence.query.timeout", 2000)).queryTimeout());
        assertNull(UnitSettings.read(Map.of()).queryTimeout());
        var e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> UnitSettings.read(Map.of("jakarta.persistence.query.timeout", "10s")));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("invalid value '10s' for setting 'jakarta.persistence.query.timeout'"),
                e.getMessage());
    }

    @Test
    void aReplicaPoolConnectsWithTheSessionPropertiesOfThePrimaryUrl() {
        RwSplitConfig config = RwSplitConfig.from(Map.of("hibernate.rwsplit.replicas",
                "m=jdbc:mariadb://127.0.0.1:1/replica own=jdbc:mariadb://127.0.0.1:1/replica?sessionVariables=sql_mode=''"));
        PrimarySession primary = new PrimarySession("SET time_zone = '+01:00'",
                "jdbc:mariadb://127.0.0.1:2/app?password=secret&sessionVariables=time_zone='+03:00'&sslMode=trust");
        try (ReplicaPools pools = ReplicaPools.build("pools", config, Clock.SYSTEM, primary)) {
            HikariDataSource inherits = (HikariDataSource) pools.replicaSet().nodes().get(0).dataSource();
            assertEquals("jdbc:mariadb://127.0.0.1:1/replica?sessionVariables=time_zone='+03:00'", inherits.getJdbcUrl());
            assertEquals("SET time_zone = '+01:00'", inherits.getConnectionInitSql());
            HikariDataSource own = (HikariDataSource) pools.replicaSet().nodes().get(1).dataSource();
            assertEquals("jdbc:mariadb://127.0.0.1:1/replica?sessionVariables=sql_mode=''", own.getJdbcUrl(),
                    "the replica URL's own value wins");
        }
    }
}
