package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

import io.rwsplit.Consistency;
import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.Cluster;
import io.rwsplit.testing.Cluster.JdbcDriver;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * The two stories of issue 4 against the replicated MariaDB cluster: a user edits a profile (or places an
 * order) in one session, and a NEW session with the same scope key reads it back right away. With every
 * replica delayed by 2 s, a read served by a replica that has not applied the write is stale. Users run
 * concurrently, each writing then reading, so that 200 write-read pairs take seconds, not 400 s.
 */
@ReplicatedCluster
class ReadYourWritesIT {

    private static final int USERS = 20;
    private static final int ITERATIONS = 10; // per user: 200 write-read pairs per story

    private final Cluster cluster;
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final List<EntityManagerFactory> factories = new ArrayList<>();

    ReadYourWritesIT(Cluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void createSchema() throws SQLException {
        cluster.update(Cluster.PRIMARY, "create table profile (id bigint primary key, bio varchar(100))");
        cluster.update(Cluster.PRIMARY, "create table purchase_order (id bigint auto_increment primary key,"
                + " customer varchar(100) not null, item varchar(100) not null, index (customer))");
        StringBuilder insert = new StringBuilder("insert into profile (id, bio) values ");
        for (int u = 0; u < USERS; u++) {
            insert.append(u == 0 ? "" : ", ").append("(").append(u).append(", 'initial')");
        }
        cluster.update(Cluster.PRIMARY, insert.toString());
        cluster.sync();
    }

    @AfterEach
    void closeFactories() {
        factories.forEach(EntityManagerFactory::close);
    }

    private void delayEveryReplica() {
        for (int r = 1; r <= cluster.replicaCount(); r++) {
            cluster.delay(r, 2);
        }
    }

    EntityManagerFactory factory(Map<String, Object> extra) {
        return factory(JdbcDriver.MARIADB, extra);
    }

    EntityManagerFactory factory(JdbcDriver driver, Map<String, Object> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("consistency-it")
                .managedClass(Profile.class)
                .managedClass(PurchaseOrder.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(Cluster.PRIMARY, driver))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.hikari.maximumPoolSize", Integer.toString(USERS + 5))
                .property(RwSplitSettings.REPLICAS, cluster.jdbcUrl(Cluster.replica(1), driver) + "\n"
                        + cluster.jdbcUrl(Cluster.replica(2), driver))
                .property(RwSplitSettings.POOL_PREFIX + "maximumPoolSize", Integer.toString(USERS + 5));
        if (driver == JdbcDriver.MYSQL) {
            cfg.property("hibernate.dialect", "org.hibernate.dialect.MariaDBDialect");
        }
        extra.forEach(cfg::property);
        EntityManagerFactory emf = cfg.createEntityManagerFactory();
        factories.add(emf);
        return emf;
    }

    /** What the read sessions of a story saw. */
    record Outcome(long pairs, long stale, long primaryReads, long replicaReads, Map<String, Long> reasons) {
        double replicaShare() {
            long total = primaryReads + replicaReads;
            return total == 0 ? 0 : (double) replicaReads / total;
        }

        @Override
        public String toString() {
            return String.format("%d pairs, %d stale, replica share of read-after-write reads %.0f%% (%d of %d), reasons %s",
                    pairs, stale, 100 * replicaShare(), replicaReads, primaryReads + replicaReads, reasons);
        }
    }

    interface Story {
        /** Writes iteration {@code i} of {@code user} through {@code writer}; reads it back through {@code reader}; true if stale. */
        boolean writeThenRead(EntityManager writer, EntityManager reader, int user, int i);
    }

    /** Profile edit: the new bio must be what the next session reads. */
    static final Story PROFILE = (writer, reader, user, i) -> {
        writer.getTransaction().begin();
        writer.find(Profile.class, (long) user).bio = "v" + i;
        writer.getTransaction().commit();
        return !("v" + i).equals(reader.find(Profile.class, (long) user).bio);
    };

    /** Place an order: the next session's order list must contain it. */
    Story orders() {
        return (writer, reader, user, i) -> {
            String customer = run + "-" + user;
            writer.getTransaction().begin();
            writer.persist(new PurchaseOrder(customer, "item" + i));
            writer.getTransaction().commit();
            long listed = reader.createQuery("select count(o) from PurchaseOrder o where o.customer = :c", Long.class)
                    .setParameter("c", customer).getSingleResult();
            return listed != i + 1;
        };
    }

    /** Runs the story for every user concurrently; writer and reader are new sessions sharing the user's scope key. */
    Outcome run(EntityManagerFactory writes, EntityManagerFactory reads, Consistency level, Story story) throws Exception {
        AtomicLong stale = new AtomicLong();
        AtomicLong primary = new AtomicLong();
        AtomicLong replica = new AtomicLong();
        Map<String, Long> reasons = new HashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(USERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int u = 0; u < USERS; u++) {
                int user = u;
                String scope = "user-" + run + "-" + user;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < ITERATIONS; i++) {
                        try (EntityManager writer = writes.createEntityManager();
                             EntityManager reader = reads.createEntityManager()) {
                            RwSplit.scope(writer, scope);
                            RwSplit.scope(reader, scope);
                            RwSplit.consistency(reader, level);
                            if (story.writeThenRead(writer, reader, user, i)) {
                                stale.incrementAndGet();
                            }
                            RoutingStatistics s = RwSplit.statistics(reader);
                            primary.addAndGet(s.primaryStatements());
                            replica.addAndGet(s.replicaStatements());
                            synchronized (reasons) {
                                s.byReason().forEach((k, v) -> reasons.merge(k, v, Long::sum));
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
        return new Outcome((long) USERS * ITERATIONS, stale.get(), primary.get(), replica.get(), reasons);
    }

    private Outcome story(String mode, Consistency level, Story story) throws Exception {
        EntityManagerFactory emf = factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, mode,
                // the injected lag is 2 s: a time window must be longer than the lag it protects against
                RwSplitSettings.READ_YOUR_WRITES_WINDOW, "PT3S"));
        return run(emf, emf, level, story);
    }

    private static void report(String what, Outcome outcome) {
        System.out.println("[consistency-it] " + what + ": " + outcome);
    }

    @Test
    void profileEditsAreNeverStaleInTimeMode() throws Exception {
        delayEveryReplica();
        Outcome o = story("time", Consistency.readYourWrites(), PROFILE);
        report("profile, delay 2s, time mode", o);
        assertEquals(0, o.stale(), o.toString());
        assertEquals(0, o.replicaReads(), o.toString());
    }

    @Test
    void profileEditsAreNeverStaleInGtidMode() throws Exception {
        delayEveryReplica();
        Outcome o = story("gtid", Consistency.readYourWrites(), PROFILE);
        report("profile, delay 2s, gtid mode", o);
        assertEquals(0, o.stale(), o.toString());
    }

    @Test
    void ordersAreNeverMissingInTimeMode() throws Exception {
        delayEveryReplica();
        Outcome o = story("time", Consistency.readYourWrites(), orders());
        report("orders, delay 2s, time mode", o);
        assertEquals(0, o.stale(), o.toString());
    }

    @Test
    void ordersAreNeverMissingInGtidMode() throws Exception {
        delayEveryReplica();
        Outcome o = story("gtid", Consistency.readYourWrites(), orders());
        report("orders, delay 2s, gtid mode", o);
        assertEquals(0, o.stale(), o.toString());
    }

    @Test
    void eventualReadsAreStaleSoTheStoriesCanFail() throws Exception {
        delayEveryReplica();
        Outcome profile = story("gtid", Consistency.eventual(), PROFILE);
        Outcome orders = story("gtid", Consistency.eventual(), orders());
        report("profile, delay 2s, EVENTUAL", profile);
        report("orders, delay 2s, EVENTUAL", orders);
        assertTrue(profile.stale() > 0, profile.toString());
        assertTrue(orders.stale() > 0, orders.toString());
    }

    @Test
    void gtidModeServesReadAfterWriteFromReplicasWhereTimeModeCannot() throws Exception {
        EntityManagerFactory gtid = factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, "gtid"));
        EntityManagerFactory time = factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, "time"));
        Outcome g = run(gtid, gtid, Consistency.readYourWrites(), PROFILE);
        Outcome t = run(time, time, Consistency.readYourWrites(), PROFILE);
        Outcome go = run(gtid, gtid, Consistency.readYourWrites(), orders());
        report("profile, no delay, gtid mode", g);
        report("profile, no delay, time mode", t);
        report("orders, no delay, gtid mode", go);
        assertEquals(0, g.stale() + t.stale() + go.stale());
        assertEquals(0.0, t.replicaShare(), t.toString());
        assertTrue(g.replicaShare() > 0.5, g.toString());
        assertTrue(go.replicaShare() > 0.5, go.toString());
    }

    @Test
    void gtidModeWorksThroughMysqlConnectorJ() throws Exception {
        EntityManagerFactory emf = factory(JdbcDriver.MYSQL, Map.of(RwSplitSettings.READ_YOUR_WRITES, "gtid"));
        Outcome o = run(emf, emf, Consistency.readYourWrites(), PROFILE);
        report("profile, no delay, gtid mode, mysql-connector-j", o);
        assertEquals(0, o.stale(), o.toString());
        assertTrue(o.replicaShare() > 0.5, o.toString());
    }

    /** The lag the defaults are chosen against: commit on the primary until a replica applied it. */
    @Test
    void measuresReplicationLag() throws Exception {
        long[] micros = new long[200];
        try (java.sql.Connection primary = cluster.connect(Cluster.PRIMARY);
             java.sql.Connection replica = cluster.connect(Cluster.replica(1));
             java.sql.Statement p = primary.createStatement();
             java.sql.PreparedStatement wait = replica.prepareStatement("select master_gtid_wait(?, 5)")) {
            for (int i = 0; i < micros.length; i++) {
                p.executeUpdate("update profile set bio = 'lag" + i + "' where id = 1");
                long committed = System.nanoTime();
                String gtid;
                try (java.sql.ResultSet rs = p.executeQuery("select @@last_gtid")) {
                    rs.next();
                    gtid = rs.getString(1);
                }
                wait.setString(1, gtid);
                try (java.sql.ResultSet rs = wait.executeQuery()) {
                    rs.next();
                    assertEquals(0, rs.getInt(1));
                }
                micros[i] = (System.nanoTime() - committed) / 1_000;
            }
        }
        java.util.Arrays.sort(micros);
        System.out.printf("[consistency-it] replication lag, commit to applied on replica1 (incl. 2 round trips),"
                + " 200 commits: p50 %d us, p99 %d us, max %d us%n", micros[100], micros[197], micros[199]);
    }

    // ------------------------------------------------------------------ two application instances

    private Map<String, Object> redis(String mode) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(RwSplitSettings.READ_YOUR_WRITES, mode);
        settings.put(RwSplitSettings.READ_YOUR_WRITES_WINDOW, "PT3S");
        settings.put(RwSplitSettings.CONSISTENCY_STORE, "redis");
        settings.put(RwSplitSettings.REDIS_URL, RedisServer.url());
        return settings;
    }

    @Test
    void twoInstancesSharingRedisHonourEachOthersWrites() throws Exception {
        delayEveryReplica();
        for (String mode : new String[] {"gtid", "time"}) {
            EntityManagerFactory a = factory(redis(mode));
            EntityManagerFactory b = factory(redis(mode));
            Outcome o = run(a, b, Consistency.readYourWrites(), PROFILE);
            report("profile written via instance A, read via instance B, shared Redis, delay 2s, " + mode + " mode", o);
            assertEquals(0, o.stale(), o.toString());
        }
    }

    @Test
    void twoInstancesWithPrivateMemoryStoresDoNotSeeEachOthersWrites() throws Exception {
        delayEveryReplica();
        EntityManagerFactory a = factory(Map.of());
        EntityManagerFactory b = factory(Map.of());
        Outcome o = run(a, b, Consistency.readYourWrites(), PROFILE);
        report("profile written via A, read via B, memory stores (control)", o);
        assertTrue(o.stale() > 0, o.toString());
    }

    @Test
    void aTokenCarriesCausalityAcrossInstances() throws Exception {
        delayEveryReplica();
        EntityManagerFactory a = factory(Map.of());
        EntityManagerFactory b = factory(Map.of());
        int staleWithToken = 0;
        int staleWithout = 0;
        for (int i = 0; i < 20; i++) {
            String token;
            try (EntityManager writer = a.createEntityManager()) {
                writer.getTransaction().begin();
                writer.find(Profile.class, 0L).bio = "t" + i;
                writer.getTransaction().commit();
                token = RwSplit.token(writer);
            }
            assertNotNull(token);
            try (EntityManager without = b.createEntityManager()) {
                staleWithout += ("t" + i).equals(without.find(Profile.class, 0L).bio) ? 0 : 1;
            }
            try (EntityManager reader = b.createEntityManager()) {
                RwSplit.requireToken(reader, token);
                staleWithToken += ("t" + i).equals(reader.find(Profile.class, 0L).bio) ? 0 : 1;
            }
        }
        System.out.println("[consistency-it] token across instances, delay 2s: " + staleWithToken
                + " stale of 20 with the token, " + staleWithout + " stale of 20 without");
        assertEquals(0, staleWithToken);
        assertTrue(staleWithout > 0);
    }
}
