package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.rwsplit.Consistency;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.health.ReplicaStatus;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * The replica list in the forms users write it reaches both replicas of the cluster; an application user
 * without CREATE privilege gets lag measured by the gtid probe instead of a heartbeat that fails.
 */
@ReplicatedCluster
class ReplicaConfigurationIT {

    private final MariaDbCluster cluster;
    private final List<EntityManagerFactory> factories = new ArrayList<>();

    ReplicaConfigurationIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void createSchema() throws SQLException {
        cluster.update(MariaDbCluster.PRIMARY, "create table profile (id bigint primary key, bio varchar(100))");
        cluster.update(MariaDbCluster.PRIMARY, "insert into profile (id, bio) values (1, 'initial')");
        cluster.sync();
    }

    @AfterEach
    void closeFactories() {
        factories.forEach(EntityManagerFactory::close);
    }

    private EntityManagerFactory factory(String user, String password, Map<String, Object> settings) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("replica-configuration-it")
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(MariaDbCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", user)
                .property("jakarta.persistence.jdbc.password", password);
        settings.forEach(cfg::property);
        EntityManagerFactory emf = cfg.createEntityManagerFactory();
        factories.add(emf);
        return emf;
    }

    @Test
    void everyListFormReachesBothReplicas() {
        String r1 = cluster.jdbcUrl(MariaDbCluster.replica(1));
        String r2 = cluster.jdbcUrl(MariaDbCluster.replica(2));
        Map<String, Map<String, Object>> forms = new LinkedHashMap<>();
        forms.put("commas", Map.of(RwSplitSettings.REPLICAS, r1 + "," + r2));
        forms.put("comma and space", Map.of(RwSplitSettings.REPLICAS, r1 + ", " + r2));
        forms.put("semicolons", Map.of(RwSplitSettings.REPLICAS, r1 + ";" + r2));
        forms.put("new lines", Map.of(RwSplitSettings.REPLICAS, "\n  " + r1 + "\n  " + r2 + "\n"));
        forms.put("named, commas", Map.of(RwSplitSettings.REPLICAS, "a=" + r1 + ",b=" + r2));
        forms.put("indexed [n]", Map.of(RwSplitSettings.REPLICAS + "[0]", r1, RwSplitSettings.REPLICAS + "[1]", r2));
        forms.put("indexed .n", Map.of(RwSplitSettings.REPLICAS + ".0", r1, RwSplitSettings.REPLICAS + ".1", r2));
        for (Map.Entry<String, Map<String, Object>> form : forms.entrySet()) {
            Map<String, Object> settings = new java.util.HashMap<>(form.getValue());
            settings.put(RwSplitSettings.LOAD_BALANCER, "round_robin");   // one thread's reads on both replicas
            EntityManagerFactory emf = factory(cluster.user(), cluster.password(), settings);
            // Hibernate's own start-up reads (the dialect's "SELECT @@character_set_database, @@sql_mode") are
            // routed like any read: count only the finds
            long before = RwSplit.statistics(emf).byReplica().values().stream().mapToLong(Long::longValue).sum();
            for (int i = 0; i < 6; i++) {
                try (EntityManager em = emf.createEntityManager()) {
                    RwSplit.consistency(em, Consistency.eventual());
                    assertEquals("initial", em.find(Profile.class, 1L).bio);
                }
            }
            Map<String, Long> byReplica = RwSplit.statistics(emf).byReplica();
            assertEquals(2, byReplica.size(), form.getKey() + ": " + byReplica);
            assertEquals(before + 6L, byReplica.values().stream().mapToLong(Long::longValue).sum(),
                    form.getKey() + ": " + byReplica);
            emf.close();
            factories.remove(emf);
        }
    }

    @Test
    void aRuleByTierSendsItsShapesReadsToTheSecondTierReplicaAndTheOthersToTheFirst() throws SQLException {
        String r1 = cluster.jdbcUrl(MariaDbCluster.replica(1));
        String r2 = cluster.jdbcUrl(MariaDbCluster.replica(2));
        EntityManagerFactory emf = factory(cluster.user(), cluster.password(), Map.of(
                RwSplitSettings.REPLICAS, "main=" + r1 + ",reporting=" + r2,
                "hibernate.rwsplit.replica.reporting.tier", "2",
                "hibernate.rwsplit.rule.report.match", "prefix:select @@server_id",
                "hibernate.rwsplit.rule.report.route", "tier:2"));
        String first = String.valueOf(cluster.queryInt(MariaDbCluster.replica(1), "select @@server_id"));
        String second = String.valueOf(cluster.queryInt(MariaDbCluster.replica(2), "select @@server_id"));
        for (int i = 0; i < 6; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals(second, String.valueOf(em.createNativeQuery("select @@server_id").getSingleResult()),
                        "the rule's shape reads the tier-2 replica");
            }
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals(first, String.valueOf(em.createNativeQuery("select 0 + @@server_id").getSingleResult()),
                        "another shape reads the best tier");
            }
        }
    }

    @Test
    void aUserWithoutCreatePrivilegeGetsTheGtidProbeWithOneWarning() throws Exception {
        cluster.sql(MariaDbCluster.PRIMARY, "create user if not exists 'nocreate'@'%' identified by 'nocreate';"
                + " grant select, insert, update, delete on rwsplit.* to 'nocreate'@'%'");
        cluster.sync();
        Logger log = (Logger) LoggerFactory.getLogger("io.rwsplit.internal.health.HeartbeatWithFallback");   // its one WARN
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        try {
            EntityManagerFactory emf = factory("nocreate", "nocreate", Map.of(
                    RwSplitSettings.REPLICAS, cluster.jdbcUrl(MariaDbCluster.replica(1)) + " " + cluster.jdbcUrl(MariaDbCluster.replica(2)),
                    RwSplitSettings.HEARTBEAT_TABLE, "rwsplit_heartbeat_denied",
                    RwSplitSettings.MAX_LAG, "0"));
            cluster.delay(1, 1);
            long deadline = System.nanoTime() + 15_000_000_000L;
            ReplicaStatus delayed = null;
            while (System.nanoTime() < deadline) {
                // writes move the primary's GTID position, which the gtid probe compares with the replicas'
                try (EntityManager em = emf.createEntityManager()) {
                    em.getTransaction().begin();
                    em.find(Profile.class, 1L).bio = "t" + System.nanoTime();
                    em.getTransaction().commit();
                }
                delayed = RwSplit.health(emf).status("replica1");
                if (delayed.lagMicros() > 500_000) {
                    break;
                }
                Thread.sleep(100);
            }
            assertTrue(delayed != null && delayed.isUp() && delayed.lagMicros() > 500_000, "lag measured: " + delayed);
            assertTrue(RwSplit.health(emf).status("replica2").lagMicros() < 500_000, RwSplit.health(emf).toString());
            List<ILoggingEvent> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).getFormattedMessage().contains("rwsplit_heartbeat_denied")
                    && warnings.get(0).getFormattedMessage().contains("gtid"), warnings.get(0).getFormattedMessage());
            assertEquals(0, cluster.queryInt(MariaDbCluster.PRIMARY, "select count(*) from information_schema.tables"
                    + " where table_name = 'rwsplit_heartbeat_denied'"));
        }
        finally {
            log.detachAppender(appender);
        }
    }
}
