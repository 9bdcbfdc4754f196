package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;

import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.TestCluster;

/**
 * A replica that restarts between two probes (the probe interval is 30 s here, so the monitor never notices) is not
 * trusted with what it applied before: the first connection its pool opens to the restarted server asks when it
 * started, and what the replica was known to have applied is forgotten before the read uses it (one subclass per
 * database).
 */
abstract class FastRestartContract {

    private static final String REPLICA = TestCluster.replica(1);

    final TestCluster cluster;

    FastRestartContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    private Class<? extends FailoverRow> rowClass() {
        return FailoverRow.type(cluster.kind());
    }

    private Supplier<? extends FailoverRow> newRow() {
        return () -> FailoverRow.of(cluster.kind());
    }

    @Test
    void aReplicaRestartedFasterThanAProbeIsAskedAgainBeforeItServesARead() throws Exception {
        try (LogCapture logs = LogCapture.attach("io.rwsplit.internal.replica.ReplicaSet", Level.INFO);
                EntityManagerFactory emf = new HibernatePersistenceConfiguration("fast-restart-it")
                        .managedClass(rowClass())
                        .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                        .property("jakarta.persistence.jdbc.user", cluster.user())
                        .property("jakarta.persistence.jdbc.password", cluster.password())
                        .property("hibernate.hbm2ddl.auto", "create")
                        .property(RwSplitSettings.REPLICAS, cluster.jdbcUrl(REPLICA))
                        .property(RwSplitSettings.PROBE_INTERVAL, "30s")
                        .property(RwSplitSettings.MAX_LAG, "0")
                        .createEntityManagerFactory()) {
            try (EntityManager em = emf.createEntityManager()) {
                em.getTransaction().begin();
                FailoverRow row = newRow().get();
                row.id = 1L;
                row.written = 1;
                em.persist(row);
                em.getTransaction().commit();
            }
            cluster.sync();
            RouteReason first = read(emf);
            assertEquals(RouteReason.UNIT_CAUSAL_WAIT, first, "the first read asks the replica (a wait) and learns");
            assertEquals(RouteReason.UNIT_CAUSAL_REPLICA_CAUGHT_UP, read(emf), "then it is known to have the write");

            cluster.kill(REPLICA);
            cluster.revive(REPLICA);   // well within the 30 s probe interval
            // longer than HikariCP's 500 ms alive-bypass window: the pool checks its idle connections to the old server
            // before it lends one and replaces them, as for an application that paused a moment (a read on one of
            // them would fail and take the replica out of rotation instead, which forgets what it told anyway)
            Thread.sleep(1_000);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            RouteReason after = read(emf);
            while (after.target() != io.rwsplit.Target.REPLICA && System.nanoTime() < deadline) {
                after = read(emf);     // reads that met the pool's dead connections went to the primary
            }
            assertEquals(RouteReason.UNIT_CAUSAL_WAIT, after,
                    "the restarted replica is asked again, not trusted with what it applied before: " + logs.lines());
            assertTrue(logs.lines().stream().anyMatch(l -> l.contains("restarted")), String.join("\n", logs.lines()));
        }
    }

    /** A read of row 1 in a new EntityManager; the reason it was routed for. */
    private RouteReason read(EntityManagerFactory emf) {
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals(1, em.find(rowClass(), 1L).written);
            return RwSplit.statistics(em).lastDecision().reason();
        }
    }
}
