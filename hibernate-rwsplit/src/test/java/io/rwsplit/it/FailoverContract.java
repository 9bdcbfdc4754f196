package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import ch.qos.logback.classic.Level;

import io.rwsplit.LostWriteException;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.TestCluster;

/**
 * A primary failover with the application running: {@value FailoverLoad#USERS} users write their row and read it
 * back in a new {@code EntityManager} (defaults only) while the primary is killed, replica 1 promoted and replica 2
 * re-pointed to it. The primary URL lists the primary and then replica 1, as an application reaching its primary
 * through a moving name does; the replica list names both replicas. No read fails, none is stale (older than a write
 * the new primary has); a read older than a write the failover lost is one the module reported (the lost-write
 * failover is counted and logged; reads in flight at the change fail with {@link LostWriteException}, counted apart;
 * a new session after the re-base reads the new primary's data), and the replica that was not promoted serves reads
 * again (the server that answered says so). The write outage, failed writes and
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

    /** Whether the driver moves a pooled connection to the next host without an error (MariaDB Connector/J). */
    boolean driverMovesConnections() {
        return false;
    }

    @Test
    void aPrimaryFailoverFailsNoReadAndTheRemainingReplicaServesReadsAgain() throws Exception {
        FailoverLoad load = run(true);
        assertEquals(0, load.failedReads(), load::summary);
        assertEquals(0, load.staleReads(), load::summary);
        if (load.lostWrites() > 0) {
            // a read in a new session after the re-base sees the new primary's data; the loss itself must be known
            assertTrue(load.lostWriteFailoversReported() > 0,
                    () -> "reads older than a write the failover lost, and no lost write reported: " + load.summary());
        }
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
            if (module) {
                load.lostWriteFailoversReported(RwSplit.statistics(emf).lostWriteFailovers());
            }
            System.out.println(getClass().getSimpleName() + (module ? " with the module: " : " plain Hibernate: ")
                    + load.summary() + "; replica2 share 5 s after the promotion: "
                    + load.shareAfterPromotion(Duration.ofSeconds(5), replica2)
                    + (module ? "; health " + RwSplit.health(emf).replicas() + "; reasons "
                    + RwSplit.statistics(emf).byReason() : ""));
            return load;
        }
    }

    /**
     * A write no replica received (both detached), then the primary killed and replica 1 promoted without it, as
     * asynchronous replication loses writes. The failover is counted (statistics, health) and logged once at ERROR
     * with both positions; the session that wrote it, and a session handed its token (a cookie's), fail their next
     * read once with {@link LostWriteException}, then read the new primary's data; a session begun after the change
     * reads it at once; with {@code lost_writes=log} the writer's read answers the new primary's data, logged at WARN
     * and counted. No read answers older than the committed write without saying so. The answers are checked on the
     * new primary.
     */
    @Test
    void aWriteLostInAFailoverIsCountedLoggedAndToldToTheReadsThatNeedIt() throws Exception {
        try (LogCapture logs = LogCapture.attach("io.rwsplit.consistency", Level.WARN);
                EntityManagerFactory failing = factory(true, Map.of());
                EntityManagerFactory logging = factory(true, Map.of(RwSplitSettings.LOST_WRITES, "log"))) {
            commit(failing, 1L, 1);
            commit(logging, 2L, 1);
            cluster.sync();
            cluster.detach(1);
            cluster.detach(2);

            EntityManager writer = failing.createEntityManager();
            EntityManager logWriter = logging.createEntityManager();
            String token;
            try {
                update(writer, 1L, 2);
                token = RwSplit.token(writer);
                update(logWriter, 2L, 2);
                assertEquals(2, cluster.queryInt(TestCluster.PRIMARY, "select written from failover_row where id = 1"));
                assertEquals(1, cluster.queryInt(TestCluster.replica(1), "select written from failover_row where id = 1"),
                        "no replica received the write");

                cluster.kill(TestCluster.PRIMARY);
                cluster.promote(1);
                awaitLostWriteFailover(failing);
                awaitLostWriteFailover(logging);

                assertEquals(1, RwSplit.health(failing).lostWriteFailovers());
                // each factory's monitor counts the failover, then logs it: the second line may follow the count
                long logged = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (logs.lines().stream().filter(l -> l.startsWith("ERROR")).count() < 2 && System.nanoTime() < logged) {
                    Thread.sleep(10);
                }
                List<String> errors = logs.lines().stream().filter(l -> l.startsWith("ERROR")).toList();
                assertEquals(2, errors.size(), () -> String.join("\n", logs.lines()));
                assertTrue(errors.get(0).contains("writes were lost") && errors.get(0).contains(" up to "), errors.get(0));

                writer.clear();
                LostWriteException lost = lostWrite(() -> writer.find(rowClass(), 1L));
                assertFalse(lost.lostPosition().isBlank());
                assertEquals(1, writer.find(rowClass(), 1L).written, "told once, the writer reads the new primary's data");

                try (EntityManager later = failing.createEntityManager()) {
                    assertEquals(1, later.find(rowClass(), 1L).written, "a session begun after the change is not failed");
                }
                try (EntityManager withToken = failing.createEntityManager()) {
                    RwSplit.requireToken(withToken, token);
                    assertEquals(lost.lostPosition(), lostWrite(() -> withToken.find(rowClass(), 1L)).lostPosition(),
                            "the token's holder learns it");
                }
                assertEquals(2, RwSplit.statistics(failing).lostWriteReads());

                logWriter.clear();
                assertEquals(1, logWriter.find(rowClass(), 2L).written, "lost_writes=log: the new primary's data");
                assertEquals(1, RwSplit.statistics(logging).lostWriteReads());
                assertTrue(logs.lines().stream().anyMatch(l -> l.startsWith("WARN") && l.contains("lost_writes=log")),
                        () -> String.join("\n", logs.lines()));
                try (Connection newPrimary = cluster.connect(TestCluster.replica(1))) {
                    assertEquals(1, count(newPrimary, "select written from failover_row where id = 1"),
                            "the write is not on the new primary: it was lost, not read stale");
                }
            }
            finally {
                writer.close();
                logWriter.close();
            }
        }
    }

    /**
     * A failover that lost nothing (every write replicated), seen late: the primary killed and replica 1 promoted, then
     * a session writes through the primary URL, whose host list leads to the promoted server at once, before the
     * monitor's next look (a long probe interval). That write is the new primary's own, not one the failover lost: when
     * the monitor sees the change, no lost-write failover is counted or logged, and the writer's next read and a new
     * session's answer the write. Before the writer was told apart (PostgreSQL's timeline, the GTID's server id on
     * MariaDB), its position, past what the new primary had replicated, was taken for a lost write: counted, logged at
     * ERROR, and the writer's next read failed with {@link LostWriteException}.
     */
    @Test
    void aWriteOnThePromotedServerBeforeTheMonitorSeesTheFailoverIsNotReportedLost() throws Exception {
        try (LogCapture logs = LogCapture.attach("io.rwsplit", Level.WARN);
                EntityManagerFactory emf = factory(true, Map.of(RwSplitSettings.PROBE_INTERVAL, "20s"))) {
            // the monitor looks at the primary URL as the factory starts, then every 20 s: the steps below take a few
            // seconds, so the write lands on the promoted server before its next look
            commit(emf, 4L, 1);
            cluster.sync();
            cluster.kill(TestCluster.PRIMARY);
            cluster.promote(1);
            EntityManager writer = emf.createEntityManager();
            try {
                update(writer, 4L, 2);
                assertEquals(2, cluster.queryInt(TestCluster.replica(1), "select written from failover_row where id = 4"),
                        "the write is on the promoted server");
                assertTrue(logs.lines().stream().noneMatch(l -> l.contains("another server answers as the primary")),
                        () -> "the monitor saw the failover before the write: nothing tested; " + logs.lines());

                long deadline = System.nanoTime() + Duration.ofSeconds(50).toNanos();
                while (logs.lines().stream().noneMatch(l -> l.contains("another server answers as the primary"))) {
                    assertTrue(System.nanoTime() < deadline, () -> "the monitor did not see the failover: " + logs.lines());
                    Thread.sleep(50);   // its next look comes within the probe interval
                }
                assertEquals(0, RwSplit.statistics(emf).lostWriteFailovers(), () -> String.join("\n", logs.lines()));
                assertTrue(logs.lines().stream().noneMatch(l -> l.startsWith("ERROR")), () -> String.join("\n", logs.lines()));
                writer.clear();
                assertEquals(2, writer.find(rowClass(), 4L).written, "the writer reads its write");
                try (EntityManager later = emf.createEntityManager()) {
                    assertEquals(2, later.find(rowClass(), 4L).written);
                }
                assertEquals(0, RwSplit.statistics(emf).lostWriteReads());
            }
            finally {
                writer.close();
            }
        }
    }

    /**
     * A read that must see a write no replica has (both detached), sent to the primary, right after the primary died
     * and before the monitor's next look at it (a long probe interval here), the pool lending connections in
     * autocommit mode as Spring Boot's does: the pooled primary connection's driver may have re-opened it on replica 1
     * without an error (MariaDB Connector/J does on a {@code sequential:} URL when the pool checks an idle connection),
     * and the read would run there. It is never answered from there, older than the write: it fails once no writable
     * server answered within the failover wait (no promotion here), and in a transaction it fails at once. Without
     * the check it answered 1.
     */
    @Test
    void aReadThePrimaryMustServeIsNotAnsweredByTheReplicaItsConnectionWasMovedTo() throws Exception {
        try (LogCapture logs = LogCapture.attach("io.rwsplit.route", Level.WARN);
                EntityManagerFactory emf = factory(true, Map.of(RwSplitSettings.PROBE_INTERVAL, "30s",
                RwSplitSettings.PRIMARY_COOL_DOWN, "1s", RwSplitSettings.CAUSAL_WAIT_TIMEOUT, "50ms",
                "hibernate.hikari.autoCommit", "true", "hibernate.hikari.connectionTimeout", "1000"))) {
            commit(emf, 3L, 1);
            cluster.sync();
            cluster.detach(1);
            cluster.detach(2);
            EntityManager writer = emf.createEntityManager();
            try {
                update(writer, 3L, 2);
                assertEquals(1, cluster.queryInt(TestCluster.replica(1), "select written from failover_row where id = 3"),
                        "replica 1 lacks the write");
                cluster.kill(TestCluster.PRIMARY);
                // the pool checks a connection idle for more than 500 ms when it lends it (HikariCP's isValid): the
                // driver's check is what moves a MariaDB connection without an error, as a request after a pause does
                Thread.sleep(1_000);
                writer.clear();
                long[] answered = {-1};
                org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                        () -> answered[0] = writer.find(rowClass(), 3L).written,
                        () -> "answered " + answered[0] + " (the write is 2, replica 1 has 1); reasons "
                                + RwSplit.statistics(emf).byReason());

                // nor in a read-write transaction that only reads (a service method not marked read-only)
                writer.clear();
                writer.getTransaction().begin();
                try {
                    org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                            () -> answered[0] = writer.find(rowClass(), 3L).written,
                            () -> "in a transaction: answered " + answered[0] + " (the write is 2, replica 1 has 1)");
                }
                finally {
                    if (writer.getTransaction().isActive()) {
                        writer.getTransaction().rollback();
                    }
                }
                if (driverMovesConnections()) {
                    assertTrue(logs.lines().stream().anyMatch(l -> l.contains("its driver moved it there")),
                            () -> "the reads failed, but not because the moved connection was found: " + logs.lines());
                }
            }
            finally {
                writer.close();
            }
        }
    }

    private void commit(EntityManagerFactory emf, long id, long written) {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            FailoverRow row = newRow().get();
            row.id = id;
            row.written = written;
            em.persist(row);
            em.getTransaction().commit();
        }
    }

    private void update(EntityManager em, long id, long written) {
        em.getTransaction().begin();
        em.find(rowClass(), id).written = written;
        em.getTransaction().commit();
    }

    private static LostWriteException lostWrite(Runnable read) {
        RuntimeException failed = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, read::run);
        for (Throwable t = failed; t != null; t = t.getCause()) {
            if (t instanceof LostWriteException lost) {
                return lost;
            }
        }
        throw new AssertionError("not a LostWriteException", failed);
    }

    private static void awaitLostWriteFailover(EntityManagerFactory emf) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (RwSplit.statistics(emf).lostWriteFailovers() == 0) {
            assertTrue(System.nanoTime() < deadline, "no lost-write failover counted within 30 s: "
                    + RwSplit.health(emf));
            Thread.sleep(20);   // the monitor looks at the primary URL every probe interval (250 ms)
        }
        assertEquals(1, RwSplit.statistics(emf).lostWriteFailovers());
    }

    private static int count(Connection c, String sql) throws java.sql.SQLException {
        try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private EntityManagerFactory factory(boolean module) {
        return factory(module, Map.of());
    }

    private EntityManagerFactory factory(boolean module, Map<String, String> settings) {
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
            settings.forEach(cfg::property);
        }
        return cfg.createEntityManagerFactory();
    }
}
