package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.TestCluster;

/**
 * A bounded soak with faults (one subclass per database): {@value #USERS} users each write their row and read it back
 * in a new {@code EntityManager} (defaults only) for {@value #SECONDS} s, while a driver with a fixed seed kills and
 * revives replicas, pauses and resumes their replication and delays them, one fault at a time for 1 to 3 s, and once
 * {@value #BURST} extra readers exhaust the replica pools together. The primary is never touched. No read is stale, no
 * autocommit read fails, no write fails, and once the factory is closed no connection of the application is left on
 * any server.
 */
abstract class FaultSoakContract {

    static final int USERS = 16;
    static final int SECONDS = 45;
    static final int BURST = 24;
    private static final long SEED = 20261203L;

    final TestCluster cluster;

    FaultSoakContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    private Class<? extends FailoverRow> rowClass() {
        return FailoverRow.type(cluster.kind());
    }

    private Supplier<? extends FailoverRow> newRow() {
        return () -> FailoverRow.of(cluster.kind());
    }

    /** The connections of the application's user on the server the query runs on, other than its own. */
    private String otherConnectionsQuery() {
        return cluster.kind() == io.rwsplit.testing.Database.POSTGRESQL
                ? "select count(*) from pg_stat_activity where usename = current_user and pid <> pg_backend_pid()"
                : "select count(*) from information_schema.processlist where user = substring_index(current_user(), '@', 1)"
                        + " and id <> connection_id()";
    }

    @Test
    void randomReplicaFaultsAndABusyBurstCostNoFailedOrStaleReadAndLeaveNoConnection() throws Exception {
        AtomicInteger staleReads = new AtomicInteger();
        AtomicInteger failedReads = new AtomicInteger();
        AtomicInteger failedWrites = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger burstReads = new AtomicInteger();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        List<String> faults = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        EntityManagerFactory emf = factory();
        ExecutorService users = Executors.newFixedThreadPool(USERS + BURST);
        try {
            for (long user = 1; user <= USERS; user++) {
                commit(emf, user, 0, true);
            }
            for (long user = 1; user <= USERS; user++) {
                long id = user;
                users.submit(() -> {
                    long confirmed = 0;
                    while (running.get()) {
                        try {
                            commit(emf, id, confirmed + 1, false);
                            confirmed++;
                        }
                        catch (RuntimeException e) {
                            failedWrites.incrementAndGet();
                            errors.add("write of user " + id + ": " + e);
                        }
                        try (EntityManager em = emf.createEntityManager()) {
                            FailoverRow row = em.find(rowClass(), id);
                            reads.incrementAndGet();
                            if (row == null || row.written < confirmed) {
                                staleReads.incrementAndGet();
                                errors.add("stale read of user " + id + ": " + (row == null ? "no row" : row.written)
                                        + " after " + confirmed);
                            }
                        }
                        catch (RuntimeException e) {
                            failedReads.incrementAndGet();
                            errors.add("read of user " + id + ": " + e);
                        }
                    }
                });
            }
            Random random = new Random(SEED);
            long end = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
            boolean burstDone = false;
            while (System.nanoTime() < end) {
                if (!burstDone && System.nanoTime() > end - Duration.ofSeconds(SECONDS / 2).toNanos()) {
                    burstDone = true;
                    faults.add("burst of " + BURST + " readers");
                    burst(emf, users, burstReads, failedReads, errors);
                    continue;
                }
                int replica = 1 + random.nextInt(cluster.replicaCount());
                int action = random.nextInt(3);
                long holdMillis = 1_000 + random.nextInt(2_000);
                faults.add(List.of("kill", "pause", "delay").get(action) + " replica" + replica + " " + holdMillis + " ms");
                switch (action) {
                    case 0 -> cluster.kill(TestCluster.replica(replica));
                    case 1 -> cluster.pause(replica);
                    default -> cluster.delay(replica, 1);
                }
                Thread.sleep(holdMillis);
                switch (action) {
                    case 0 -> cluster.revive(TestCluster.replica(replica));
                    case 1 -> cluster.resume(replica);
                    default -> cluster.delay(replica, 0);
                }
                Thread.sleep(random.nextInt(1_000));
            }
        }
        finally {
            running.set(false);
            users.shutdown();
            assertTrue(users.awaitTermination(60, TimeUnit.SECONDS), "the users did not stop");
        }
        String reasons = RwSplit.statistics(emf).byReason().toString();
        emf.close();
        String summary = String.format(Locale.ROOT, "%s: reads %d (burst %d), stale %d, failed reads %d, failed writes %d;"
                        + " faults %s; reasons %s; first errors %s", getClass().getSimpleName(), reads.get(),
                burstReads.get(), staleReads.get(), failedReads.get(), failedWrites.get(), faults, reasons,
                errors.stream().limit(5).toList());
        System.out.println(summary);
        assertEquals(0, staleReads.get(), summary);
        assertEquals(0, failedReads.get(), summary);
        assertEquals(0, failedWrites.get(), summary);
        assertTrue(reads.get() > USERS * 10, summary);
        for (String node : cluster.nodes()) {
            assertEquals(0, leftConnections(node), node + ": connections of the application left after close");
        }
    }

    /** {@value #BURST} readers at once, each holding its read connection a moment: more than the replica pools hold. */
    private void burst(EntityManagerFactory emf, ExecutorService pool, AtomicInteger burstReads, AtomicInteger failed,
                       ConcurrentLinkedQueue<String> errors) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(BURST);
        for (int i = 0; i < BURST; i++) {
            long id = 1 + i % USERS;
            pool.submit(() -> {
                try {
                    start.await();
                    for (int n = 0; n < 20; n++) {
                        try (EntityManager em = emf.createEntityManager()) {
                            em.unwrap(org.hibernate.Session.class).doWork(c -> {
                                try (Statement s = c.createStatement();
                                     ResultSet rs = s.executeQuery("select written from failover_row where id = " + id)) {
                                    rs.next();
                                }
                            });
                            burstReads.incrementAndGet();
                        }
                        catch (RuntimeException e) {
                            failed.incrementAndGet();
                            errors.add("burst read: " + e);
                        }
                    }
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                finally {
                    done.countDown();
                }
            });
        }
        start.countDown();
        assertTrue(done.await(60, TimeUnit.SECONDS), "the burst did not end");
    }

    private void commit(EntityManagerFactory emf, long id, long written, boolean create) {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            FailoverRow row = create ? newRow().get() : em.find(rowClass(), id);
            row.id = id;
            row.written = written;
            if (create) {
                em.persist(row);
            }
            em.getTransaction().commit();
        }
    }

    private int leftConnections(String node) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            int left;
            try (Connection c = cluster.connect(node); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery(otherConnectionsQuery())) {
                rs.next();
                left = rs.getInt(1);
            }
            // a server closes a connection the pool closed a moment later: give it that moment
            if (left == 0 || System.nanoTime() > deadline) {
                return left;
            }
            try {
                Thread.sleep(100);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return left;
            }
        }
    }

    private EntityManagerFactory factory() {
        return new HibernatePersistenceConfiguration("fault-soak-it")
                .managedClass(rowClass())
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.hikari.maximumPoolSize", "20")
                .property("hibernate.hbm2ddl.auto", "create")
                .property(RwSplitSettings.REPLICAS, cluster.namedReplicaUrls())
                .property(RwSplitSettings.POOL_PREFIX + "maximumPoolSize", "6")
                .property(RwSplitSettings.POOL_PREFIX + "connectionTimeout", "250")
                .createEntityManagerFactory();
    }
}
