package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;
import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * PostgreSQL under write load, with the module's defaults only (read-your-writes of the whole unit): 8 users each
 * write their own row in one {@code EntityManager} and read it back in a new one, concurrently. No read-back is stale,
 * and the standbys serve most of them (the share is printed; the assertion is a generous floor, the figures belong on
 * the benchmark page): a standby replays a small commit within a millisecond here, so a read that waits for it by
 * position costs less than it saves.
 */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresWriteThenReadIT {

    static final int USERS = 8;
    static final int PAIRS = 150;

    private final TestCluster cluster;
    private EntityManagerFactory emf;
    private ExecutorService threads;

    PostgresWriteThenReadIT(PostgresCluster cluster) {
        this.cluster = cluster;
    }

    @AfterEach
    void close() throws InterruptedException {
        if (threads != null) {
            threads.shutdownNow();
            threads.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (emf != null) {
            emf.close();
        }
    }

    @Test
    void eightConcurrentUsersReadTheirOwnWritesFromTheStandbysAndNeverStale() throws Exception {
        cluster.update(TestCluster.PRIMARY, "create table profile (id bigint primary key, bio varchar(100))");
        for (int user = 1; user <= USERS; user++) {
            cluster.update(TestCluster.PRIMARY, "insert into profile values (" + user + ", '0')");
        }
        cluster.sync();
        emf = routingFactory();
        HealthContract.awaitMillis(java.time.Duration.ofSeconds(10), () -> RwSplit.health(emf).replicas().stream()
                .allMatch(s -> s.observedAtNanos() != 0 && s.isUp()), "both standbys probed and UP");

        threads = Executors.newFixedThreadPool(USERS);
        CountDownLatch go = new CountDownLatch(1);
        List<String> stale = Collections.synchronizedList(new ArrayList<>());
        AtomicLong onStandby = new AtomicLong();
        List<Future<?>> users = new ArrayList<>();
        for (int u = 1; u <= USERS; u++) {
            long id = u;
            users.add(threads.submit(() -> {
                go.await();
                for (int i = 1; i <= PAIRS; i++) {
                    String written = Integer.toString(i);
                    try (EntityManager em = emf.createEntityManager()) {
                        em.getTransaction().begin();
                        em.find(Profile.class, id).bio = written;
                        em.getTransaction().commit();
                    }
                    try (EntityManager em = emf.createEntityManager()) {
                        String read = em.find(Profile.class, id).bio;
                        if (RwSplit.statistics(em).replicaStatements() > 0) {
                            onStandby.incrementAndGet();
                        }
                        if (!written.equals(read)) {
                            stale.add("user " + id + " read " + read + " after writing " + written);
                        }
                    }
                }
                return null;
            }));
        }
        long start = System.nanoTime();
        go.countDown();
        for (Future<?> user : users) {
            user.get(120, TimeUnit.SECONDS);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        long readBacks = (long) USERS * PAIRS;
        Map<String, Long> reasons = new TreeMap<>(RwSplit.statistics(emf).byReason());
        System.out.printf("[pg-write-then-read-it] %d users x %d write-then-read pairs in %d ms: %d stale, %d of %d"
                + " read-backs on a standby (%.0f %%); reasons %s%n", USERS, PAIRS, millis, stale.size(), onStandby.get(),
                readBacks, 100.0 * onStandby.get() / readBacks, reasons);

        assertEquals(List.of(), stale.subList(0, Math.min(10, stale.size())), "no read-back is stale");
        assertTrue(onStandby.get() * 2 > readBacks, "most read-backs on a standby: " + onStandby.get() + " of "
                + readBacks + ", reasons " + reasons);
    }

    /**
     * Reading a commit's position must not leave a transaction open on the primary in manual-commit mode: pgjdbc
     * would begin one for the query, and the application's next {@code setAutoCommit(true)} or {@code commit()}
     * would end it with one more round trip, an empty transaction on the primary for every write.
     */
    @Test
    void aCommitInManualCommitModeLeavesNoTransactionOpenOnThePrimary() throws Exception {
        cluster.update(TestCluster.PRIMARY, "drop table if exists commit_state");
        cluster.update(TestCluster.PRIMARY, "create table commit_state (id bigint primary key, v varchar(10))");
        cluster.sync();
        emf = routingFactory();
        List<String> states = new ArrayList<>();
        try (org.hibernate.Session session = emf.unwrap(org.hibernate.SessionFactory.class).openSession()) {
            session.doWork(c -> {
                c.setAutoCommit(false);
                for (int i = 1; i <= 3; i++) {
                    try (java.sql.Statement s = c.createStatement()) {
                        s.executeUpdate("insert into commit_state values (" + i + ", 'x')");
                    }
                    c.commit();
                    states.add(transactionState(c));
                }
                c.setAutoCommit(true);
            });
            assertEquals(3, RwSplit.statistics(session).primaryStatements(), "the three inserts, on the primary");
        }
        assertEquals(List.of("IDLE", "IDLE", "IDLE"), states, "pgjdbc's transaction state after each commit");
    }

    /** The cluster's primary and both standbys, hibernate-rwsplit's defaults (as a new user configures it). */
    private EntityManagerFactory routingFactory() {
        return new HibernatePersistenceConfiguration("pg-write-then-read-it")
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.namedReplicaUrls())
                .createEntityManagerFactory();
    }

    /** pgjdbc's transaction state of the physical connection behind {@code c} (IDLE, OPEN or FAILED). */
    private static String transactionState(java.sql.Connection c) {
        try {
            Class<?> base = Class.forName("org.postgresql.core.BaseConnection");
            Object pg = c.unwrap(base);
            return String.valueOf(base.getMethod("getTransactionState").invoke(pg));
        }
        catch (ReflectiveOperationException | java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}
