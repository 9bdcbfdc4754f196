package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteDecision;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.Target;
import io.rwsplit.testing.TestCluster;

/**
 * Coming back after lag: a user edits a profile and reads it back in a new EntityManager (defaults:
 * read-your-writes of the unit) while both replicas are 2 s behind, then the delay is lifted. Once the
 * replicas have caught up, the read-after-write reads must return to them and stay there. The time from
 * "caught up" to the first replica read and the reads that went back to the primary after it are printed as
 * figures, not asserted (wall-clock bounds break on a loaded machine); the outcome asserted is no stale read
 * and replica reads after the catch-up.
 */
abstract class LagClearingContract {

    private final TestCluster cluster;

    LagClearingContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    record Read(long atMillis, Target target, String reason) {
    }

    @Test
    void readAfterWriteReturnsToTheReplicasOnceTheyCaughtUp() throws SQLException {
        cluster.update(TestCluster.PRIMARY, "create table profile (id bigint primary key, bio varchar(100))");
        cluster.update(TestCluster.PRIMARY, "insert into profile (id, bio) values (0, 'initial')");
        cluster.sync();
        try (EntityManagerFactory emf = new HibernatePersistenceConfiguration("lag-clearing-it")
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property(RwSplitSettings.REPLICAS, cluster.replicaUrls())
                // the replicas are 2 s behind on purpose: keep them in rotation, consistency must do the work
                .property(RwSplitSettings.MAX_LAG, "0")
                .createEntityManagerFactory()) {
            for (int r = 1; r <= cluster.replicaCount(); r++) {
                cluster.delay(r, 2);
            }
            int[] version = {0};
            int stale = 0;
            stale += run(emf, version, TimeUnit.SECONDS.toNanos(3), System.nanoTime(), new ArrayList<>());
            for (int r = 1; r <= cluster.replicaCount(); r++) {
                cluster.delay(r, 0);
            }
            cluster.sync();
            long caughtUp = System.nanoTime();
            List<Read> after = new ArrayList<>();
            stale += run(emf, version, TimeUnit.SECONDS.toNanos(3), caughtUp, after);
            int first = -1;
            for (int i = 0; i < after.size() && first < 0; i++) {
                if (after.get(i).target() == Target.REPLICA) {
                    first = i;
                }
            }
            long backToPrimary = first < 0 ? 0 : after.subList(first, after.size()).stream()
                    .filter(read -> read.target() == Target.PRIMARY).count();
            System.out.printf("[lag-clearing-it] %s: first replica read-after-write %d ms after the replicas caught up"
                            + " (read %d of %d); %d of the %d later reads went back to the primary: %s%n", cluster.kind(),
                    first < 0 ? -1 : after.get(first).atMillis(), first + 1, after.size(), backToPrimary,
                    after.size() - first - 1, first < 0 ? after : after.subList(first, Math.min(after.size(), first + 40)));
            assertEquals(0, stale, "no read-after-write read is stale");
            assertTrue(first >= 0, "read-after-write reads return to the replicas once they caught up: " + after);
        }
    }

    /** Write-then-read pairs for {@code nanos}; records each read after {@code since}; returns the stale reads. */
    private static int run(EntityManagerFactory emf, int[] version, long nanos, long since, List<Read> reads) {
        int stale = 0;
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            String bio = "v" + ++version[0];
            try (EntityManager writer = emf.createEntityManager()) {
                writer.getTransaction().begin();
                writer.find(Profile.class, 0L).bio = bio;
                writer.getTransaction().commit();
            }
            try (EntityManager reader = emf.createEntityManager()) {
                if (!bio.equals(reader.find(Profile.class, 0L).bio)) {
                    stale++;
                }
                RouteDecision decision = RwSplit.statistics(reader).lastDecision();
                reads.add(new Read(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), decision.target(),
                        decision.reason().name()));
            }
        }
        return stale;
    }
}
