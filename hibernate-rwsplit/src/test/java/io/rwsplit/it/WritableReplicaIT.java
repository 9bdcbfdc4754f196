package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;

import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * A listed replica that accepts writes ({@code read_only=OFF}) while it still replicates is reported once at WARN and
 * shown in health (MariaDB; MySQL's read_only is read the same way and is covered by unit tests of the probe's query).
 */
@ReplicatedCluster
class WritableReplicaIT {

    private final MariaDbCluster cluster;

    WritableReplicaIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void aReplicaThatAcceptsWritesIsReportedOnceAtWarnAndShownInHealth() {
        cluster.sql(TestCluster.replica(1), "SET GLOBAL read_only = OFF");
        try (LogCapture logs = LogCapture.attach("io.rwsplit", Level.INFO)) {
            EntityManagerFactory emf = new HibernatePersistenceConfiguration("writable-replica-it")
                    .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                    .property("jakarta.persistence.jdbc.user", cluster.user())
                    .property("jakarta.persistence.jdbc.password", cluster.password())
                    .property(RwSplitSettings.REPLICAS, cluster.namedReplicaUrlsWithCredentials())
                    .property(RwSplitSettings.PROBE_INTERVAL, "100ms")
                    .createEntityManagerFactory();
            try {
                HealthContract.awaitMillis(Duration.ofSeconds(10),
                        () -> RwSplit.health(emf).status("replica1").acceptsWrites(), "replica1 reported writable");
                long seen = RwSplit.health(emf).status("replica1").observedAtNanos();
                HealthContract.awaitMillis(Duration.ofSeconds(10),
                        () -> RwSplit.health(emf).status("replica1").observedAtNanos() > seen + 300_000_000L,
                        "three more probes of replica1");
                assertFalse(RwSplit.health(emf).status("replica2").acceptsWrites(), "replica2 is read_only=ON");
                assertEquals(1, logs.lines().stream().filter(l -> l.contains("WARN")
                        && l.contains("replica 'replica1' accepts writes")).count(), String.join("\n", logs.lines()));

                cluster.sql(TestCluster.replica(1), "SET GLOBAL read_only = ON");
                HealthContract.awaitMillis(Duration.ofSeconds(10),
                        () -> !RwSplit.health(emf).status("replica1").acceptsWrites(), "replica1 read-only again");
            }
            finally {
                emf.close();
            }
        }
        finally {
            cluster.sql(TestCluster.replica(1), "SET GLOBAL read_only = ON");
        }
    }
}
