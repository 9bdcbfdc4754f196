package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;
import io.rwsplit.testing.Cluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * Replica health against the real cluster: lag detection by heartbeat, ejection and return with
 * hysteresis, failover of reads when replicas die, the fallback, and the primary circuit breaker.
 * Waits poll with deadlines; nothing sleeps a fixed time to "let things happen".
 */
@ReplicatedCluster
class HealthIT {

    private static final int PRIMARY_ID = 1;
    /** Server ids of replica1 and replica2. */
    private static final int REPLICA1_ID = 2;
    private static final int REPLICA2_ID = 3;
    private static final long INTERVAL_MS = 250;
    private static final long MAX_LAG_MS = 1000;
    private static final long RECOVERY_MS = 1000;

    private final Cluster cluster;
    private EntityManagerFactory emf;

    HealthIT(Cluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void createSchema() throws SQLException {
        cluster.update(Cluster.PRIMARY, "create table account (id bigint auto_increment primary key,"
                + " owner varchar(100) not null, balance int not null)");
        cluster.update(Cluster.PRIMARY, "insert into account (owner, balance) values ('alice', 100), ('bob', 50)");
        cluster.sync();
    }

    @AfterEach
    void closeFactory() {
        if (emf != null) {
            emf.close();
        }
    }

    private EntityManagerFactory factory(Map<String, Object> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("health-it")
                .managedClass(Account.class)
                .property("jakarta.persistence.jdbc.url", cluster.mariadbUrl(Cluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", "replica1=" + cluster.mariadbUrl(Cluster.replica(1))
                        + "\nreplica2=" + cluster.mariadbUrl(Cluster.replica(2)))
                .property("hibernate.rwsplit.pool.maximumPoolSize", "4")
                .property("hibernate.rwsplit.pool.connectionTimeout", "1000")
                .property("hibernate.hikari.connectionTimeout", "1000")
                .property("hibernate.rwsplit.lag_probe", "heartbeat")
                .property("hibernate.rwsplit.probe_interval", INTERVAL_MS + "ms")
                .property("hibernate.rwsplit.max_lag", MAX_LAG_MS + "ms")
                .property("hibernate.rwsplit.recovery_period", RECOVERY_MS + "ms");
        extra.forEach(cfg::property);
        emf = cfg.createEntityManagerFactory();
        awaitMillis(Duration.ofSeconds(10), () -> RwSplit.health(emf).replicas().stream()
                .allMatch(s -> s.observedAtNanos() != 0 && s.isUp()), "both replicas probed and UP");
        return emf;
    }

    private ReplicaStatus status(String replica) {
        return RwSplit.health(emf).status(replica);
    }

    private int servedBy() {
        try (EntityManager em = emf.createEntityManager()) {
            return em.find(Account.class, 1L).servedBy;
        }
    }

    /** Polls every 10 ms until the condition holds; returns the elapsed milliseconds, fails at the deadline. */
    private static long awaitMillis(Duration deadline, BooleanSupplier condition, String what) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > deadline.toNanos()) {
                throw new AssertionError("not within " + deadline + ": " + what);
            }
            try {
                Thread.sleep(10);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void pausedReplicaIsEjectedWithinMaxLagPlusOneIntervalAndReturnsAfterTheRecoveryPeriod() {
        factory(Map.of());
        cluster.pause(1);
        long ejectedAfter = awaitMillis(Duration.ofSeconds(5), () -> !status("replica1").isUp(), "replica1 ejected");
        System.out.printf("[HealthIT] paused replica ejected after %d ms (bound %d ms), state %s, lag %d ms%n",
                ejectedAfter, MAX_LAG_MS + INTERVAL_MS + 250, status("replica1").state(), status("replica1").lagMicros() / 1000);
        assertTrue(ejectedAfter <= MAX_LAG_MS + INTERVAL_MS + 250, "ejected after " + ejectedAfter + " ms");
        assertEquals(ReplicaState.LAGGING, status("replica1").state());

        for (int i = 0; i < 20; i++) {
            assertEquals(REPLICA2_ID, servedBy(), "reads continue on the other replica");
        }

        cluster.resume(1);
        long caughtUp = awaitMillis(Duration.ofSeconds(5), () -> status("replica1").lagMicros() <= MAX_LAG_MS * 1000,
                "replica1 caught up");
        long back = awaitMillis(Duration.ofSeconds(5), () -> status("replica1").isUp(), "replica1 back") + caughtUp;
        System.out.printf("[HealthIT] resumed replica back in rotation after %d ms (lag within max_lag after %d ms,"
                + " recovery_period %d ms)%n", back, caughtUp, RECOVERY_MS);
        assertTrue(back >= RECOVERY_MS - INTERVAL_MS, "hysteresis: not back before the recovery period, was " + back);
        assertTrue(back <= caughtUp + RECOVERY_MS + 2 * INTERVAL_MS + 250, "back after " + back + " ms");
        Set<Integer> servers = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            servers.add(servedBy());
        }
        assertEquals(Set.of(REPLICA1_ID, REPLICA2_ID), servers);
    }

    @Test
    void killingReplicasDuringAStreamOfReadsFailsNoReadAndFallsBackToThePrimary() throws Exception {
        factory(Map.of());
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<Integer, AtomicInteger> byServer = new java.util.concurrent.ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            readers.add(pool.submit(() -> {
                while (running.get()) {
                    try {
                        int id = servedBy();
                        byServer.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                        reads.incrementAndGet();
                    }
                    catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            }));
        }
        try {
            awaitMillis(Duration.ofSeconds(5), () -> reads.get() > 200, "reads flowing");
            cluster.kill(Cluster.replica(1));
            long ejected = awaitMillis(Duration.ofSeconds(5), () -> !status("replica1").isUp(), "replica1 ejected");
            int before = reads.get();
            awaitMillis(Duration.ofSeconds(5), () -> reads.get() > before + 200, "reads go on");
            System.out.printf("[HealthIT] killed replica ejected %d ms after kill returned; %d reads, %d failed%n",
                    ejected, reads.get(), failures.size());
            assertEquals(List.of(), failures, "no read may fail when one replica dies");

            cluster.kill(Cluster.replica(2));
            awaitMillis(Duration.ofSeconds(5), () -> !status("replica2").isUp(), "replica2 ejected");
            int both = reads.get();
            awaitMillis(Duration.ofSeconds(5), () -> reads.get() > both + 100, "reads go on with both replicas dead");
            assertEquals(List.of(), failures, "nor when both die: the primary serves");
        }
        finally {
            running.set(false);
            for (Future<?> f : readers) {
                f.get(30, TimeUnit.SECONDS);
            }
            pool.shutdown();
        }
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals(PRIMARY_ID, em.find(Account.class, 1L).servedBy);
            assertEquals(1L, RwSplit.statistics(em).byReason().get("NO_HEALTHY_REPLICA"));
        }

        cluster.revive(Cluster.replica(1));
        cluster.revive(Cluster.replica(2));
        long back = awaitMillis(Duration.ofSeconds(10), () -> RwSplit.health(emf).up().size() == 2, "replicas back");
        System.out.printf("[HealthIT] revived replicas back in rotation after %d ms%n", back);
        Set<Integer> servers = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            servers.add(servedBy());
        }
        assertEquals(Set.of(REPLICA1_ID, REPLICA2_ID), servers, "replicas used again");
    }

    @Test
    void fallbackFailRaisesTheClearErrorWhenNoReplicaIsHealthy() {
        factory(Map.of("hibernate.rwsplit.fallback", "fail"));
        cluster.kill(Cluster.replica(1));
        cluster.kill(Cluster.replica(2));
        awaitMillis(Duration.ofSeconds(5), () -> RwSplit.health(emf).up().isEmpty(), "no replica UP");
        PersistenceException e = assertThrows(PersistenceException.class, this::servedBy);
        String messages = messages(e);
        assertTrue(messages.contains("no healthy replica") && messages.contains("hibernate.rwsplit.fallback"), messages);
    }

    /**
     * MariaDB applies {@code MASTER_DELAY} in whole seconds, against a master clock difference also
     * rounded to whole seconds when the replica connects: {@code delay 2} makes rows visible between about
     * 1 and 3 s after their commit, varying from run to run. So the probe is compared with the truth
     * measured independently by this test (a marker row written on the primary every 20 ms, the newest
     * one visible on the replica polled every few ms), both taken as the peak of the same 1.5 s window.
     */
    @Test
    void heartbeatMeasuresADelayOfTwoSecondsAndAHealthyReplicaUnder100Ms() throws Exception {
        factory(Map.of("hibernate.rwsplit.max_lag", "0"));
        cluster.update(Cluster.PRIMARY, "create table marker (id bigint auto_increment primary key, t bigint not null)");
        cluster.sync();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<?> writes = writer.submit(() -> {
            try (java.sql.Connection c = cluster.connect(Cluster.PRIMARY);
                 java.sql.PreparedStatement ps = c.prepareStatement("insert into marker (t) values (?)")) {
                c.setAutoCommit(true);
                while (running.get()) {
                    ps.setLong(1, epochMicros());
                    ps.executeUpdate();
                    Thread.sleep(20); // the marker rate, not a wait for an effect
                }
            }
            return null;
        });
        List<long[]> truth = new ArrayList<>(); // {nanoTime, stalenessMicros}
        List<String> pairs = new ArrayList<>();
        List<Long> healthy = new ArrayList<>();
        try (java.sql.Connection replica = cluster.connect(Cluster.replica(1));
             java.sql.PreparedStatement newest = replica.prepareStatement("select max(t) from marker")) {
            cluster.delay(1, 2);
            awaitMillis(Duration.ofSeconds(10), () -> status("replica1").lagMicros() > 900_000, "delay visible");
            long start = System.nanoTime();
            long lastObserved = status("replica1").observedAtNanos();
            while (System.nanoTime() - start < 6_000_000_000L) {
                try (java.sql.ResultSet rs = newest.executeQuery()) {
                    rs.next();
                    truth.add(new long[] {System.nanoTime(), epochMicros() - rs.getLong(1)});
                }
                ReplicaStatus r1 = status("replica1");
                // compare once the truth covers a whole window
                if (r1.observedAtNanos() != lastObserved && System.nanoTime() - start > 2_000_000_000L) {
                    lastObserved = r1.observedAtNanos();
                    long since = r1.observedAtNanos() - io.rwsplit.health.HealthTracker.LAG_WINDOW_MILLIS * 1_000_000L;
                    long peak = truth.stream().filter(x -> x[0] >= since && x[0] <= r1.observedAtNanos())
                            .mapToLong(x -> x[1]).max().orElse(0);
                    pairs.add(r1.lagMicros() / 1000 + "/" + peak / 1000);
                    assertEquals(peak / 1000.0, r1.lagMicros() / 1000.0, 300,
                            "probe/truth (ms) so far: " + pairs);
                    healthy.add(status("replica2").lagMicros() / 1000);
                }
            }
        }
        finally {
            running.set(false);
            writes.get(10, TimeUnit.SECONDS);
            writer.shutdown();
        }
        System.out.printf("[HealthIT] heartbeat lag with delay 2, probe/truth peak (ms): %s; healthy replica: %s ms%n",
                pairs, healthy);
        assertTrue(pairs.size() >= 8, pairs.toString());
        healthy.forEach(ms -> assertTrue(ms < 100, "healthy replica measured as " + healthy));
    }

    private static long epochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Test
    void primaryKilledOpensTheBreakerWhichFailsFastAndClosesAfterRevive() {
        factory(Map.of("hibernate.rwsplit.primary_failure_threshold", "3",
                "hibernate.rwsplit.primary_cool_down", "1s"));
        cluster.kill(Cluster.PRIMARY);
        // attempts that fail on a stale pooled connection are quick and are not acquisition failures;
        // acquisitions that fail take the pool's connectionTimeout (1 s). The breaker counts the latter.
        List<String> outcomes = new ArrayList<>();
        int slowFailures = 0;
        long fastFailMillis = -1;
        for (int attempt = 0; attempt < 12 && fastFailMillis < 0; attempt++) {
            long t = System.nanoTime();
            PersistenceException e = assertThrows(PersistenceException.class, this::write);
            long ms = (System.nanoTime() - t) / 1_000_000;
            String messages = messages(e);
            if (messages.contains("primary circuit breaker OPEN since") && messages.contains("retry after")) {
                fastFailMillis = ms;
                outcomes.add(ms + " ms (breaker OPEN)");
            }
            else {
                outcomes.add(ms + " ms");
                slowFailures += ms >= 900 ? 1 : 0;
            }
        }
        System.out.printf("[HealthIT] writes with the primary dead: %s%n", outcomes);
        assertTrue(fastFailMillis >= 0, "breaker never opened: " + outcomes);
        assertTrue(slowFailures <= 3, "opens after at most 3 failed acquisitions (the monitor's heartbeat counts too): "
                + outcomes);
        assertTrue(fastFailMillis < 100, "fails fast: " + outcomes);

        for (int i = 0; i < 10; i++) {
            assertNotEquals(PRIMARY_ID, servedBy(), "replica reads keep working");
        }

        cluster.revive(Cluster.PRIMARY);
        long closed = awaitMillis(Duration.ofSeconds(15), () -> {
            try {
                write();
                return true;
            }
            catch (PersistenceException e) {
                return false;
            }
        }, "writes work again");
        System.out.printf("[HealthIT] breaker closed, first write succeeded %d ms after revive%n", closed);
    }

    private void write() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            try {
                em.persist(new Account("carol", 1));
                em.getTransaction().commit();
            }
            finally {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
            }
        }
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
