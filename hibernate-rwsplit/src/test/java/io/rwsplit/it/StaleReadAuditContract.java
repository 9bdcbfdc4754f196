package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.TestCluster;

/**
 * The stale-read audit against the replicated cluster, every replica one second behind and in rotation, every replica
 * read audited ({@code audit_sample=1}): users update their profile in one {@code EntityManager} and read it in a new
 * one, 200 pairs per mode. The test counts the old values the reads returned; the audit must count as many stale
 * reads against the unit where the level lets reads be stale, none where it does not, and say how many it prevented.
 */
abstract class StaleReadAuditContract {

    static final int PAIRS = 200;

    final TestCluster cluster;
    private final List<EntityManagerFactory> factories = new ArrayList<>();

    StaleReadAuditContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** Creates table {@code profile (id bigint primary key, bio varchar(100))}. */
    abstract String schema();

    abstract String label();

    @BeforeEach
    void createProfiles() throws SQLException {
        cluster.update(TestCluster.PRIMARY, schema());
        StringBuilder insert = new StringBuilder("insert into profile (id, bio) values ");
        for (int u = 0; u < 8; u++) {
            insert.append(u == 0 ? "" : ", ").append("(").append(u).append(", 'v-1')");
        }
        cluster.update(TestCluster.PRIMARY, insert.toString());
        cluster.sync();
        for (int r = 1; r <= cluster.replicaCount(); r++) {
            cluster.delay(r, 1);
        }
    }

    @AfterEach
    void closeFactories() {
        factories.forEach(EntityManagerFactory::close);
    }

    private EntityManagerFactory factory(Map<String, Object> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration(label())
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.hikari.maximumPoolSize", "12")
                .property(RwSplitSettings.REPLICAS, cluster.replicaUrls())
                .property(RwSplitSettings.POOL_PREFIX + "maximumPoolSize", "12")
                .property(RwSplitSettings.MAX_LAG, "0")          // lagging replicas stay in rotation
                .property(RwSplitSettings.AUDIT_SAMPLE, "1");
        extra.forEach(cfg::property);
        EntityManagerFactory emf = cfg.createEntityManagerFactory();
        factories.add(emf);
        return emf;
    }

    /** How a user's profile is read back in a new EntityManager: its bio. */
    @FunctionalInterface
    private interface Reader {
        String bio(EntityManager reader, long user);
    }

    /** What Hibernate's users do: {@code find}, a prepared statement. */
    private static String byFind(EntityManager reader, long user) {
        return reader.find(Profile.class, user).bio;
    }

    /** What {@code Session#doWork} code and native libraries do: a plain {@code Statement} of the session's connection. */
    private static String byStatement(EntityManager reader, long user) {
        return reader.unwrap(org.hibernate.Session.class).doReturningWork(c -> {
            try (java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("select bio from profile where id = " + user)) {
                assertTrue(rs.next());
                return rs.getString(1);
            }
        });
    }

    /** {@code users} users, {@link #PAIRS} write-then-read pairs in all, each read in a new EntityManager: old values read. */
    private static long oldValueReads(EntityManagerFactory emf, int users, Reader read) throws Exception {
        AtomicLong old = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(users);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                long user = u;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < PAIRS / users; i++) {
                        String value = "v" + i;
                        try (EntityManager writer = emf.createEntityManager()) {
                            writer.getTransaction().begin();
                            writer.find(Profile.class, user).bio = value;
                            writer.getTransaction().commit();
                        }
                        try (EntityManager reader = emf.createEntityManager()) {
                            if (!value.equals(read.bio(reader, user))) {
                                old.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        finally {
            pool.shutdownNow();
        }
        return old.get();
    }

    /** One mode's run: the old values its reads returned, and what the module counted. */
    record Run(long old, RoutingStatistics stats) {
    }

    /** Runs {@link #PAIRS} pairs with {@code users} users under {@code settings}, and prints what both sides counted. */
    Run run(String mode, Map<String, Object> settings, int users) throws Exception {
        return run(mode, settings, users, StaleReadAuditContract::byFind);
    }

    private Run run(String mode, Map<String, Object> settings, int users, Reader read) throws Exception {
        EntityManagerFactory emf = factory(settings);
        long old = oldValueReads(emf, users, read);
        RoutingStatistics s = RwSplit.statistics(emf);
        System.out.printf("%s %s: %d pairs, %d old-value reads; audit: %d audited, stale against the unit %d, against the"
                        + " session %d, not audited %d; prevented %d%n", label(), mode, PAIRS, old, s.auditedReads(),
                s.staleReadsAgainstUnit(), s.staleReadsAgainstSession(), s.unauditedReads(), s.preventedReads());
        return new Run(old, s);
    }

    static void assertWithinFivePercent(long expected, long actual, String what) {
        assertTrue(Math.abs(expected - actual) <= Math.max(1, expected / 20), what + ": expected about " + expected
                + " (5 %), counted " + actual);
    }

    @Test
    void underEventualTheAuditCountsTheOldValueReadsAsStaleAgainstTheUnit() throws Exception {
        Run r = run("eventual", Map.of(RwSplitSettings.CONSISTENCY, "eventual"), 1);
        assertTrue(r.old() > PAIRS / 2, "replicas a second behind: most reads are old (" + r.old() + ")");
        assertWithinFivePercent(r.old(), r.stats().staleReadsAgainstUnit(), "stale against the unit");
        assertEquals(0, r.stats().staleReadsAgainstSession(), "eventual requires nothing");
        assertEquals(0, r.stats().preventedReads());
    }

    @Test
    void underEventualPlainStatementReadsOfDoWorkAreAuditedAsPreparedOnes() throws Exception {
        Run r = run("eventual, doWork", Map.of(RwSplitSettings.CONSISTENCY, "eventual"), 1,
                StaleReadAuditContract::byStatement);
        assertTrue(r.old() > PAIRS / 2, "replicas a second behind: most reads are old (" + r.old() + ")");
        // every read-back on a replica once, and Hibernate's own start-up query (MariaDB's dialect asks the character
        // set and sql_mode through a plain Statement, routed like any read)
        long startUp = r.stats().auditedReads() - PAIRS;
        assertTrue(startUp == 0 || startUp == 1, "every plain Statement read on a replica is audited, once: "
                + r.stats().auditedReads() + " audited for " + PAIRS + " reads");
        assertWithinFivePercent(r.old(), r.stats().staleReadsAgainstUnit(), "stale against the unit");
        assertEquals(0, r.stats().staleReadsAgainstSession(), "eventual requires nothing");
    }

    @Test
    void atTheDefaultLevelNoReadIsStaleAndTheAuditCountsThePreventedOnes() throws Exception {
        Run r = run("default", Map.of(RwSplitSettings.CAUSAL_WAIT_TIMEOUT, "20ms"), 8);
        assertEquals(0, r.old());
        assertEquals(0, r.stats().staleReadsAgainstUnit());
        assertEquals(0, r.stats().staleReadsAgainstSession());
        assertTrue(r.stats().preventedReads() >= PAIRS * 95 / 100, "prevented " + r.stats().preventedReads() + " of " + PAIRS);
    }

    @Test
    void withTheSessionScopeReadsAreStaleAgainstTheUnitAndNeverAgainstTheSession() throws Exception {
        Run r = run("consistency_scope=session", Map.of(RwSplitSettings.CONSISTENCY_SCOPE, "session"), 1);
        assertTrue(r.old() > PAIRS / 2, "a new session does not see the last one's write (" + r.old() + ")");
        assertWithinFivePercent(r.old(), r.stats().staleReadsAgainstUnit(), "stale against the unit");
        assertEquals(0, r.stats().staleReadsAgainstSession(), "a new session required nothing");
    }

    @Test
    void withEightConcurrentUsersUnderEventualStaleAgainstTheUnitIsAtLeastTheOldValueReads() throws Exception {
        Run r = run("eventual, 8 users", Map.of(RwSplitSettings.CONSISTENCY, "eventual"), 8);
        assertTrue(r.stats().staleReadsAgainstUnit() >= r.old() * 95 / 100, "stale against the unit "
                + r.stats().staleReadsAgainstUnit() + ", old-value reads " + r.old());
    }
}
