package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import io.rwsplit.testing.TestCluster;

/**
 * Replica health against a real cluster, the same cases on every database (one subclass each): ejection of a
 * paused replica and its return with hysteresis, failover of reads when replicas die, the fallback to the primary
 * and {@code fallback=fail}. Every read reports which server answered it ({@code servedBy}, the database's
 * {@link io.rwsplit.testing.Database#serverIdentity() server identity}). Waits poll with deadlines; nothing sleeps a
 * fixed time to "let things happen".
 */
abstract class HealthContract {

    static final long INTERVAL_MS = 250;
    static final long MAX_LAG_MS = 1000;
    static final long RECOVERY_MS = 1000;

    final TestCluster cluster;
    EntityManagerFactory emf;
    int primaryId;
    int replica1Id;
    int replica2Id;
    private ExecutorService writerPool;
    private final AtomicBoolean writing = new AtomicBoolean();

    HealthContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    // ------------------------------------------------------------------ what differs per database

    /** Creates table {@code account (id identity primary key, owner varchar(100) not null, balance int not null)}. */
    abstract String accountTable();

    /** The account entity of this database, whose {@code servedBy} is the server identity. */
    abstract Class<?> accountClass();

    /** {@code servedBy} of the account with id 1 loaded by {@code em}. */
    abstract int servedBy(EntityManager em);

    /** The database's settings every unit of the test gets. */
    abstract void configure(HibernatePersistenceConfiguration cfg);

    /** The prefix of the lines this test prints. */
    abstract String label();

    // ------------------------------------------------------------------ harness

    @BeforeEach
    void createSchema() throws SQLException {
        cluster.update(TestCluster.PRIMARY, accountTable());
        cluster.update(TestCluster.PRIMARY, "insert into account (owner, balance) values ('alice', 100), ('bob', 50)");
        cluster.sync();
        primaryId = cluster.serverIdentity(TestCluster.PRIMARY);
        replica1Id = cluster.serverIdentity(TestCluster.replica(1));
        replica2Id = cluster.serverIdentity(TestCluster.replica(2));
    }

    @AfterEach
    void stop() throws Exception {
        writing.set(false);
        if (writerPool != null) {
            writerPool.shutdown();
            writerPool.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (emf != null) {
            emf.close();
        }
    }

    EntityManagerFactory factory(Map<String, Object> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration(label())
                .managedClass(accountClass())
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.namedReplicaUrls())
                .property("hibernate.rwsplit.pool.maximumPoolSize", "4")
                .property("hibernate.rwsplit.pool.connectionTimeout", "1000")
                .property("hibernate.hikari.connectionTimeout", "1000")
                .property("hibernate.rwsplit.probe_interval", INTERVAL_MS + "ms")
                .property("hibernate.rwsplit.max_lag", MAX_LAG_MS + "ms")
                .property("hibernate.rwsplit.recovery_period", RECOVERY_MS + "ms")
                // one thread's reads on each replica in turn: the test's stream of reads sees a replica leave and return
                .property("hibernate.rwsplit.load_balancer", "round_robin");
        configure(cfg);
        extra.forEach(cfg::property);
        emf = cfg.createEntityManagerFactory();
        awaitMillis(Duration.ofSeconds(10), () -> RwSplit.health(emf).replicas().stream()
                .allMatch(s -> s.observedAtNanos() != 0 && s.isUp()), "both replicas probed and UP");
        return emf;
    }

    /**
     * Commits a small update on the primary every 50 ms (plain JDBC) until the test ends: a paused replica with
     * nothing to apply is not behind by every probe.
     */
    void keepWriting() {
        writing.set(true);
        writerPool = Executors.newSingleThreadExecutor();
        writerPool.submit(() -> {
            while (writing.get()) {
                cluster.update(TestCluster.PRIMARY, "update account set balance = balance + 1 where id = 2");
                Thread.sleep(50); // the write rate, not a wait for an effect
            }
            return null;
        });
    }

    ReplicaStatus status(String replica) {
        return RwSplit.health(emf).status(replica);
    }

    int servedBy() {
        try (EntityManager em = emf.createEntityManager()) {
            return servedBy(em);
        }
    }

    /** Polls every 10 ms until the condition holds; returns the elapsed milliseconds, fails at the deadline. */
    static long awaitMillis(Duration deadline, BooleanSupplier condition, String what) {
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

    static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    void print(String format, Object... args) {
        System.out.printf("[" + label() + "] " + format + "%n", args);
    }

    /** Milliseconds from resuming the paused replica until its lag was within max_lag, and until it was UP again. */
    record Return(long caughtUpMillis, long backMillis) {
    }

    /**
     * With {@code probe}, a paused replica1 is ejected (the time it took is printed beside its design bound of max_lag
     * + one probe interval + 250 ms, not asserted: a loaded machine stretches it), reads go on on replica2, and once
     * resumed it returns no earlier than the recovery period and serves reads again.
     */
    Return pausedReplicaIsEjectedAndReturnsAfterTheRecoveryPeriod(String probe) {
        factory(Map.of("hibernate.rwsplit.lag_probe", probe));
        keepWriting();
        cluster.pause(1);
        long ejectedAfter = awaitMillis(Duration.ofSeconds(5), () -> !status("replica1").isUp(), "replica1 ejected");
        print("%s: paused replica ejected after %d ms (bound %d ms), state %s, lag %d ms", probe, ejectedAfter,
                MAX_LAG_MS + INTERVAL_MS + 250, status("replica1").state(), status("replica1").lagMicros() / 1000);
        assertEquals(ReplicaState.LAGGING, status("replica1").state());
        for (int i = 0; i < 20; i++) {
            assertEquals(replica2Id, servedBy(), "reads continue on the other replica");
        }

        cluster.resume(1);
        long caughtUp = awaitMillis(Duration.ofSeconds(5), () -> status("replica1").lagMicros() <= MAX_LAG_MS * 1000,
                "replica1 caught up");
        long back = awaitMillis(Duration.ofSeconds(6), () -> status("replica1").isUp(), "replica1 back") + caughtUp;
        print("%s: resumed replica back in rotation after %d ms (lag within max_lag after %d ms, recovery_period %d ms)",
                probe, back, caughtUp, RECOVERY_MS);
        assertTrue(back >= RECOVERY_MS - INTERVAL_MS, "hysteresis: not back before the recovery period, was " + back);
        assertEquals(Set.of(replica1Id, replica2Id), serversUntilBothReplicasAnswered(), "both replicas used again");
        return new Return(caughtUp, back);
    }

    // ------------------------------------------------------------------ on every database

    @Test
    void killingAReplicaDuringAStreamOfReadsFailsNoRead() throws Exception {
        killReplicasDuringAStreamOfReads(false);
    }

    /**
     * Kills replica1 (and then replica2 when {@code both}) under 4 threads reading in a loop: no read fails, the
     * primary serves when no replica is left, and the revived replicas serve reads again.
     */
    void killReplicasDuringAStreamOfReads(boolean both) throws Exception {
        factory(Map.of());
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Map<Integer, AtomicInteger> byServer = new ConcurrentHashMap<>();
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
            cluster.kill(TestCluster.replica(1));
            long ejected = awaitMillis(Duration.ofSeconds(5), () -> !status("replica1").isUp(), "replica1 ejected");
            int before = reads.get();
            awaitMillis(Duration.ofSeconds(5), () -> reads.get() > before + 200, "reads go on");
            print("killed replica ejected %d ms after kill returned; %d reads, %d failed", ejected, reads.get(),
                    failures.size());
            assertEquals(List.of(), failures, "no read may fail when one replica dies");
            if (both) {
                cluster.kill(TestCluster.replica(2));
                awaitMillis(Duration.ofSeconds(5), () -> !status("replica2").isUp(), "replica2 ejected");
                int bothDead = reads.get();
                awaitMillis(Duration.ofSeconds(5), () -> reads.get() > bothDead + 100, "reads go on with both replicas dead");
                assertEquals(List.of(), failures, "nor when both die: the primary serves");
            }
        }
        finally {
            running.set(false);
            for (Future<?> f : readers) {
                f.get(30, TimeUnit.SECONDS);
            }
            pool.shutdown();
        }
        if (both) {
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals(primaryId, servedBy(em));
                assertEquals(1L, RwSplit.statistics(em).byReason().get("NO_HEALTHY_REPLICA"));
            }
            cluster.revive(TestCluster.replica(2));
        }

        cluster.revive(TestCluster.replica(1));
        long back = awaitMillis(Duration.ofSeconds(10), () -> RwSplit.health(emf).up().size() == 2, "replicas back");
        print("revived replicas back in rotation after %d ms", back);
        assertEquals(Set.of(replica1Id, replica2Id), serversUntilBothReplicasAnswered(), "replicas used again");
    }

    /**
     * Reads until both replicas have answered, for at most 30 s, and returns the servers that answered: the balancer
     * may pick one replica for several reads in a row, and a replica back in rotation serves again once its position
     * is known, so a fixed number of reads would race the monitor (bounded, not timed).
     */
    Set<Integer> serversUntilBothReplicasAnswered() {
        Set<Integer> servers = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!servers.containsAll(Set.of(replica1Id, replica2Id)) && System.nanoTime() < deadline) {
            servers.add(servedBy());
        }
        return servers;
    }

    @Test
    void fallbackFailRaisesTheClearErrorWhenNoReplicaIsHealthy() {
        factory(Map.of("hibernate.rwsplit.fallback", "fail"));
        cluster.kill(TestCluster.replica(1));
        cluster.kill(TestCluster.replica(2));
        awaitMillis(Duration.ofSeconds(5), () -> RwSplit.health(emf).up().isEmpty(), "no replica UP");
        PersistenceException e = assertThrows(PersistenceException.class, this::servedBy);
        String messages = messages(e);
        assertTrue(messages.contains("no healthy replica") && messages.contains("hibernate.rwsplit.fallback"), messages);
    }
}
