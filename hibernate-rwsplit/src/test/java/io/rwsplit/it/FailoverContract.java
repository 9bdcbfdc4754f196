package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.function.Supplier;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.rwsplit.RwSplit;
import io.rwsplit.testing.TestCluster;

/**
 * A primary failover with the application running: {@value FailoverLoad#USERS} users write their row and read it
 * back in a new {@code EntityManager} (defaults only) while the primary is killed, replica 1 promoted and replica 2
 * re-pointed to it. The primary URL lists the primary and then replica 1, as an application reaching its primary
 * through a moving name does; the replica list names both replicas. No read fails, none is stale, and the replica
 * that was not promoted serves reads again (the server that answered says so). The write outage, failed writes and
 * the replica share are printed, not asserted; {@code -Drwsplit.failover.baseline=true} also measures the same
 * failover without the module.
 */
abstract class FailoverContract {

    final TestCluster cluster;

    FailoverContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** The primary, then replica 1, in the driver's multi-host syntax. */
    abstract String primaryUrl();

    abstract Class<? extends FailoverRow> rowClass();

    abstract Supplier<? extends FailoverRow> newRow();

    /** {@code select <server port>, <is a replica>, count(*) from failover_row}, completed with a where clause. */
    abstract String serverQuery();

    @Test
    void aPrimaryFailoverFailsNoReadAndTheRemainingReplicaServesReadsAgain() throws Exception {
        FailoverLoad load = run(true);
        assertEquals(0, load.failedReads(), load::summary);
        assertEquals(0, load.staleReads(), load::summary);
        assertTrue(load.settled(), () -> "replica2 served no read within 60 s of the promotion: " + load.summary());
    }

    /** The same failover without the module (plain Hibernate), for comparison: figures only. */
    @Test
    @EnabledIfSystemProperty(named = "rwsplit.failover.baseline", matches = "true")
    void plainHibernateBaseline() throws Exception {
        run(false);
    }

    private FailoverLoad run(boolean module) throws Exception {
        int replica2 = cluster.port(TestCluster.replica(2));
        try (EntityManagerFactory emf = factory(module);
                FailoverLoad load = new FailoverLoad(emf, rowClass(), newRow(), serverQuery()).start()) {
            load.awaitReads(50, Duration.ofSeconds(60));
            load.killed();
            cluster.kill(TestCluster.PRIMARY);
            load.killDone();
            cluster.promote(1);
            load.promoted();
            if (module) {
                load.awaitReadsServedBy(replica2, Duration.ofSeconds(60));
            }
            load.runUntilAfterPromotion(Duration.ofSeconds(6));
            try (Connection newPrimary = cluster.connect(TestCluster.replica(1))) {
                load.stop(newPrimary);
            }
            System.out.println(getClass().getSimpleName() + (module ? " with the module: " : " plain Hibernate: ")
                    + load.summary() + "; replica2 share 5 s after the promotion: "
                    + load.shareAfterPromotion(Duration.ofSeconds(5), replica2)
                    + (module ? "; health " + RwSplit.health(emf).replicas() + "; reasons "
                    + RwSplit.statistics(emf).byReason() : ""));
            return load;
        }
    }

    private EntityManagerFactory factory(boolean module) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("failover-it")
                .managedClass(rowClass())
                .managedClass(FailoverEntry.class)
                .property("jakarta.persistence.jdbc.url", primaryUrl())
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.hikari.maximumPoolSize", "10")
                .property("hibernate.hbm2ddl.auto", "create");
        if (module) {
            cfg.property("hibernate.rwsplit.replicas", cluster.namedReplicaUrls());
        }
        return cfg.createEntityManagerFactory();
    }
}
