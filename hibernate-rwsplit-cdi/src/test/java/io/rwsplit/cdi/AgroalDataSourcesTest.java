package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import jakarta.enterprise.inject.spi.Extension;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;

import io.rwsplit.RwSplitSettings;

/** The Agroal pools stay Agroal's: metrics count replica acquisitions, leak detection is configured. */
@EnableWeld
class AgroalDataSourcesTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(Reads.class);

    @Inject
    TestUnit unit;

    @Inject
    Reads reads;

    @Inject
    EntityManagerFactory emf;

    @Test
    void replicaPoolMetricsCountTheReplicaReads() {
        AgroalDataSource replica = unit.pools().replicas().get("r1");
        long before = replica.getMetrics().acquireCount();
        assertEquals("replica-alice", reads.name(1));
        assertEquals("replica-bob", reads.name(2));
        assertEquals(before + 2, replica.getMetrics().acquireCount());
        long primaryBefore = unit.pools().primary().getMetrics().acquireCount();
        assertEquals("primary-alice", reads.nameInTransaction(1));
        assertEquals(before + 2, replica.getMetrics().acquireCount());
        assertTrue(unit.pools().primary().getMetrics().acquireCount() > primaryBefore);
    }

    @Test
    void leakDetectionIsConfiguredOnEveryPool() {
        for (AgroalDataSource ds : new AgroalDataSource[] {unit.pools().primary(), unit.pools().replicas().get("r1")}) {
            assertEquals(Duration.ofMinutes(10), ds.getConfiguration().connectionPoolConfiguration().leakTimeout());
        }
    }

    @Test
    void unitPropertiesHandTheReplicaPoolsToTheCore() {
        Map<String, Object> properties = unit.pools().properties();
        assertEquals("r1", properties.get(RwSplitSettings.REPLICAS));
        assertEquals(unit.pools().replicas().get("r1"), properties.get(RwSplitSettings.REPLICA_PREFIX + "r1.datasource"));
        assertEquals(unit.pools().primary(), properties.get("hibernate.connection.datasource"));
    }

    @Test
    void replicaPoolsStartTheirSessionsLikeThePrimarysUnlessTheySetTheirOwn() throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put("rwsplit.cdi.primary.url",
                "jdbc:mariadb://db:3306/shop?sessionVariables=time_zone='+05:00'&connectTimeout=2000");
        config.put("rwsplit.cdi.primary.initial_sql", "SET sql_mode = 'ANSI'");
        config.put("rwsplit.cdi.replicas", "r1 r2");
        config.put("rwsplit.cdi.replica.r1.url", "jdbc:mariadb://r1:3306/shop");
        config.put("rwsplit.cdi.replica.r2.url", "jdbc:mariadb://r2:3306/shop?sessionVariables=time_zone='+00:00'");
        config.put("rwsplit.cdi.replica.r2.initial_sql", "SET sql_mode = ''");
        try (RwSplitDataSources pools = RwSplitDataSources.build(config)) {
            var r1 = pools.replicas().get("r1").getConfiguration().connectionPoolConfiguration()
                    .connectionFactoryConfiguration();
            var r2 = pools.replicas().get("r2").getConfiguration().connectionPoolConfiguration()
                    .connectionFactoryConfiguration();
            assertEquals("SET sql_mode = 'ANSI'", r1.initialSql(), "the primary's initial SQL");
            assertEquals("jdbc:mariadb://r1:3306/shop?sessionVariables=time_zone='+05:00'", r1.jdbcUrl(),
                    "the primary URL's session property, not its connect timeout");
            assertEquals("SET sql_mode = ''", r2.initialSql(), "its own initial SQL");
            assertEquals("jdbc:mariadb://r2:3306/shop?sessionVariables=time_zone='+00:00'", r2.jdbcUrl(), "its own value");
        }
    }

    @Test
    void unknownKeyFailsNamingIt() {
        Map<String, String> config = new HashMap<>(Map.of("rwsplit.cdi.primary.url", "jdbc:h2:mem:x",
                "rwsplit.cdi.replicas", "r1", "rwsplit.cdi.replica.r1.url", "jdbc:h2:mem:y",
                "rwsplit.cdi.replica.r2.url", "jdbc:h2:mem:z"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RwSplitDataSources.build(config));
        assertTrue(e.getMessage().contains("'rwsplit.cdi.replica.r2.url'"), e.getMessage());
    }

    @Test
    void invalidValueFailsNamingKeyAndValue() {
        Map<String, String> config = Map.of("rwsplit.cdi.primary.url", "jdbc:h2:mem:x", "rwsplit.cdi.replicas", "r1",
                "rwsplit.cdi.replica.r1.url", "jdbc:h2:mem:y", "rwsplit.cdi.leak_timeout", "soon");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RwSplitDataSources.build(config));
        assertTrue(e.getMessage().contains("invalid value 'soon' for setting 'rwsplit.cdi.leak_timeout'"), e.getMessage());
    }

    @Test
    void missingReplicasFailsNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RwSplitDataSources.build(Map.of("rwsplit.cdi.primary.url", "jdbc:h2:mem:x")));
        assertTrue(e.getMessage().contains("'rwsplit.cdi.replicas'"), e.getMessage());
    }

    @Test
    void extensionIsRegisteredAsAServiceForDiscovery() {
        assertTrue(ServiceLoader.load(Extension.class).stream().anyMatch(p -> p.type() == RwSplitExtension.class));
    }
}
