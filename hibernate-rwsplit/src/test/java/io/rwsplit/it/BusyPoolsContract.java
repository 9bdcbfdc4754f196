package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;

import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaStatus;
import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.TestCluster;

/**
 * Saturation is not failure, on a real cluster (one subclass per database): pools of 2 connections under 10
 * concurrent slow statements ({@value #SLEEP_SECONDS} s each). Replica reads that find no replica connection in time
 * go to the other replica or the primary with their own reason, none fails, and both replicas stay UP; slow write
 * transactions on a primary pool of 2 fail on the pool's timeout as they do without the module, the breaker does
 * not open, and the next INSERT waits for a connection and succeeds. Figures are printed, not asserted. The replica
 * URLs carry the password, and no line the module logs (at DEBUG) from startup through the faults gives it away.
 */
abstract class BusyPoolsContract {

    static final int SLEEP_SECONDS = 2;
    static final int CONCURRENT = 10;

    final TestCluster cluster;
    EntityManagerFactory emf;
    private ExecutorService threads;
    /** The node of each server identity. */
    private final Map<Integer, String> nodes = new ConcurrentHashMap<>();
    private LogCapture logs;

    BusyPoolsContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** A read outside a transaction that takes {@code seconds} and returns the identity of the server that ran it. */
    abstract String slowRead(int seconds);

    /** A statement that takes {@code seconds} (on the primary, inside a write transaction). */
    abstract String sleep(int seconds);

    /** The prefix of the lines this test prints. */
    abstract String label();

    @BeforeEach
    void createSchema() throws SQLException {
        cluster.update(TestCluster.PRIMARY, "create table burst (id int primary key, label varchar(50) not null)");
        cluster.sync();
        for (String node : cluster.nodes()) {
            nodes.put(cluster.serverIdentity(node), node);
        }
        threads = Executors.newFixedThreadPool(CONCURRENT);
        logs = LogCapture.attach("io.rwsplit", Level.DEBUG);
    }

    @AfterEach
    void stop() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
        if (emf != null) {
            emf.close();
        }
        if (logs != null) {
            logs.close();
        }
    }

    private void factory(Map<String, String> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration(label())
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.namedReplicaUrlsWithCredentials())
                .property("hibernate.rwsplit.consistency", "eventual")
                .property("hibernate.rwsplit.probe_interval", "250ms");
        extra.forEach(cfg::property);
        emf = cfg.createEntityManagerFactory();
        HealthContract.awaitMillis(Duration.ofSeconds(10), () -> RwSplit.health(emf).replicas().stream()
                .allMatch(s -> s.observedAtNanos() != 0 && s.isUp()), "both replicas probed and UP");
    }

    /** Runs {@code task} on {@link #CONCURRENT} threads released together; returns their results in order. */
    private <T> List<Future<T>> together(java.util.function.IntFunction<T> task) {
        CountDownLatch ready = new CountDownLatch(CONCURRENT);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> results = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            int n = i;
            results.add(threads.submit(() -> {
                ready.countDown();
                go.await();
                return task.apply(n);
            }));
        }
        try {
            assertTrue(ready.await(10, TimeUnit.SECONDS), "threads started");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        go.countDown();
        return results;
    }

    private static <T> T get(Future<T> result) throws Exception {
        return result.get(30, TimeUnit.SECONDS);
    }

    @Test
    void slowReadsOnBusyReplicaPoolsGoElsewhereWithTheirReasonAndNoReplicaLeavesRotation() throws Exception {
        factory(Map.of("hibernate.rwsplit.pool.maximumPoolSize", "2",
                "hibernate.rwsplit.pool.minimumIdle", "2",
                "hibernate.rwsplit.pool.connectionTimeout", "500"));
        // Hibernate's own start-up reads (the dialect's settings query) are routed like any read: count only ours
        Map<String, Long> before = Map.copyOf(RwSplit.statistics(emf).byReason());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger leftRotation = new AtomicInteger();
        List<Future<Integer>> reads = together(n -> {
            try (EntityManager em = emf.createEntityManager()) {
                return ((Number) em.createNativeQuery(slowRead(SLEEP_SECONDS)).getSingleResult()).intValue();
            }
            catch (RuntimeException e) {
                failures.add(e);
                return -1;
            }
        });
        // while the reads run, every 10 ms: is a replica out of rotation?
        HealthContract.awaitMillis(Duration.ofSeconds(30), () -> {
            for (ReplicaStatus status : RwSplit.health(emf).replicas()) {
                if (!status.isUp()) {
                    leftRotation.incrementAndGet();
                }
            }
            return reads.stream().allMatch(Future::isDone);
        }, "the reads end");
        Map<String, Integer> byServer = new TreeMap<>();
        for (Future<Integer> read : reads) {
            int served = get(read);
            byServer.merge(served == -1 ? "failed" : nodes.getOrDefault(served, "server " + served), 1, Integer::sum);
        }
        RoutingStatistics stats = RwSplit.statistics(emf);
        Map<String, Long> reasons = new TreeMap<>(stats.byReason());
        before.forEach((reason, count) -> reasons.computeIfPresent(reason, (r, now) -> now - count));
        print("%d concurrent %d s replica reads on replica pools of 2 (connectionTimeout 500 ms): reads per server %s,"
                + " reasons %s, replicas %s, ejections %s", CONCURRENT, SLEEP_SECONDS, byServer, reasons,
                RwSplit.health(emf).replicas().stream().map(s -> s.name() + "=" + s.state()).toList(),
                RwSplit.health(emf).ejections());

        assertEquals(List.of(), failures, "no read fails");
        assertEquals(0, leftRotation.get(), "a busy pool says nothing about its replica: none left rotation meanwhile");
        for (ReplicaStatus status : RwSplit.health(emf).replicas()) {
            assertTrue(status.isUp(), status.name() + " " + status.state());
            assertEquals(0L, RwSplit.health(emf).ejections().get(status.name()), status.name() + " never ejected");
        }
        assertNull(reasons.get(RouteReason.NO_HEALTHY_REPLICA.name()));
        long onPrimary = byServer.getOrDefault(TestCluster.PRIMARY, 0);
        assertEquals(onPrimary, reasons.getOrDefault(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name(), 0L),
                "every read the primary served says that the replica pools were busy");
        long moved = reasons.getOrDefault(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name(), 0L)
                + reasons.getOrDefault(RouteReason.REPLICA_POOL_EXHAUSTED_REPLICA.name(), 0L);
        assertTrue(moved > 0, "10 concurrent reads on 4 replica connections: some found a busy pool");
        assertEquals(CONCURRENT, moved + reasons.getOrDefault(RouteReason.REPLICA_READ.name(), 0L));
        LoggedPasswords.assertNoneLogged(logs, cluster);
    }

    @Test
    void slowWriteTransactionsOnABusyPrimaryPoolDoNotOpenTheBreakerAndTheNextInsertSucceeds() throws Exception {
        // 3 counted failures would open the breaker for 5 s; 8 of the 10 transactions wait in vain for the pool
        factory(Map.of("hibernate.hikari.maximumPoolSize", "2",
                "hibernate.hikari.connectionTimeout", "1500",
                "hibernate.rwsplit.primary_failure_threshold", "3"));
        AtomicInteger poolTimeouts = new AtomicInteger();
        List<String> otherFailures = Collections.synchronizedList(new ArrayList<>());
        List<Future<Boolean>> transactions = together(n -> {
            try (EntityManager em = emf.createEntityManager()) {
                EntityTransaction tx = em.getTransaction();
                tx.begin();
                try {
                    em.createNativeQuery("insert into burst (id, label) values (" + n + ", 'slow')").executeUpdate();
                    em.createNativeQuery(sleep(SLEEP_SECONDS)).getResultList();
                    tx.commit();
                    return true;
                }
                catch (PersistenceException e) {
                    if (tx.isActive()) {
                        tx.rollback();
                    }
                    String text = HealthContract.messages(e);
                    if (text.contains("Connection is not available, request timed out")) {
                        poolTimeouts.incrementAndGet();
                    }
                    else {
                        otherFailures.add(text);
                    }
                    return false;
                }
            }
        });
        // the next INSERT comes once the waiting transactions gave up, while the first two still hold the pool
        HealthContract.awaitMillis(Duration.ofSeconds(20), () -> poolTimeouts.get() + otherFailures.size() >= 3,
                "3 transactions gave up waiting");
        long start = System.nanoTime();
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            em.createNativeQuery("insert into burst (id, label) values (100, 'next')").executeUpdate();
            em.getTransaction().commit();
        }
        long insertMillis = (System.nanoTime() - start) / 1_000_000;
        int committed = 0;
        for (Future<Boolean> tx : transactions) {
            committed += get(tx) ? 1 : 0;
        }
        print("%d slow write transactions (%d s) on a primary pool of 2 (connectionTimeout 1500 ms): %d committed, %d"
                + " failed on the pool's timeout, other failures %s; the next INSERT succeeded in %d ms", CONCURRENT,
                SLEEP_SECONDS, committed, poolTimeouts.get(), otherFailures, insertMillis);

        assertEquals(List.of(), otherFailures, "only the pool's own timeout, never 'primary circuit breaker OPEN'");
        assertEquals(1, cluster.queryInt(TestCluster.PRIMARY, "select count(*) from burst where id = 100"));
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            em.createNativeQuery("insert into burst (id, label) values (101, 'after')").executeUpdate();
            em.getTransaction().commit();
        }
        LoggedPasswords.assertNoneLogged(logs, cluster);
    }

    void print(String format, Object... args) {
        System.out.printf("[" + label() + "] " + format + "%n", args);
    }
}
