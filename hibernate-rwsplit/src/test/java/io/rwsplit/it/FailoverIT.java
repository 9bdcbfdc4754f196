package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.rwsplit.RwSplit;
import io.rwsplit.testing.Cluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * A primary failover with the application running, on MariaDB: {@value FailoverLoad#USERS} users write their
 * row and read it back in a new {@code EntityManager} (defaults only) while the primary is killed, replica 1
 * promoted and replica 2 re-pointed to it. The primary URL lists the primary and then replica 1
 * ({@code jdbc:mariadb:sequential://}), as an application reaching its primary through a moving name does.
 * No read fails, none is stale, and the replica that was not promoted serves reads again. The write outage,
 * failed writes and the replica share are printed, not asserted.
 */
@ReplicatedCluster
class FailoverIT {

    private final Cluster cluster;

    FailoverIT(Cluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void aPrimaryFailoverFailsNoReadAndTheRemainingReplicaServesReadsAgain() throws Exception {
        FailoverFigures figures = run(true);
        assertEquals(0, figures.load.failedReads(), figures.load::summary);
        assertEquals(0, figures.load.staleReads(), figures.load::summary);
        assertTrue(figures.settled, () -> "replica2 served no read within 60 s of the promotion: " + figures.load.summary());
    }

    /** The same failover without the module (plain Hibernate), for comparison: figures only. */
    @Test
    @EnabledIfSystemProperty(named = "rwsplit.failover.baseline", matches = "true")
    void plainHibernateBaseline() throws Exception {
        run(false);
    }

    private record FailoverFigures(FailoverLoad load, boolean settled) {
    }

    private FailoverFigures run(boolean module) throws Exception {
        int replica2 = cluster.port(Cluster.replica(2));
        try (EntityManagerFactory emf = factory(module);
                FailoverLoad load = new FailoverLoad(emf, MariaDbFailoverRow.class, MariaDbFailoverRow::new,
                        "select @@port, @@read_only, count(*) from failover_row").start()) {
            load.awaitReads(50, Duration.ofSeconds(60));
            load.killed();
            cluster.kill(Cluster.PRIMARY);
            load.killDone();
            cluster.promote(1);
            load.promoted();
            boolean settled = !module || load.awaitReadsServedBy(replica2, Duration.ofSeconds(60));
            load.runUntilAfterPromotion(Duration.ofSeconds(6));
            try (Connection newPrimary = cluster.connect(Cluster.replica(1))) {
                load.stop(newPrimary);
            }
            System.out.println("FailoverIT MariaDB " + (module ? "with the module" : "plain Hibernate") + ": "
                    + load.summary() + "; replica2 share 5 s after the promotion: "
                    + load.shareAfterPromotion(Duration.ofSeconds(5), replica2)
                    + (module ? "; health " + RwSplit.health(emf).replicas() + "; reasons "
                    + RwSplit.statistics(emf).byReason() : ""));
            return new FailoverFigures(load, settled);
        }
    }

    private EntityManagerFactory factory(boolean module) {
        String primaryUrl = "jdbc:mariadb:sequential://127.0.0.1:" + cluster.port(Cluster.PRIMARY) + ",127.0.0.1:"
                + cluster.port(Cluster.replica(1)) + "/" + cluster.database();
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("failover-it")
                .managedClass(MariaDbFailoverRow.class)
                .managedClass(FailoverEntry.class)
                .property("jakarta.persistence.jdbc.url", primaryUrl)
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.hikari.maximumPoolSize", "10")
                .property("hibernate.hbm2ddl.auto", "create");
        if (module) {
            cfg.property("hibernate.rwsplit.replicas", "replica1=" + cluster.mariadbUrl(Cluster.replica(1))
                    + "\nreplica2=" + cluster.mariadbUrl(Cluster.replica(2)));
        }
        return cfg.createEntityManagerFactory();
    }
}
