package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.testing.TestCluster;

/**
 * Read-your-writes against a replicated cluster, the same stories on every database (one subclass each): 20 users
 * edit their profile or place an order in one session and read it back in a NEW session with the same scope key
 * (200 write-read pairs per story), with every replica 2 s behind and without lag; two application instances
 * sharing Redis or not; a token carried between instances. Users run concurrently so that 200 pairs take seconds.
 * A read served by a replica that has not applied the write is stale.
 */
abstract class ReadYourWritesContract {

    static final int USERS = 20;
    static final int ITERATIONS = 10; // per user: 200 write-read pairs per story

    final TestCluster cluster;
    final String run = UUID.randomUUID().toString().substring(0, 8);
    private final List<EntityManagerFactory> factories = new ArrayList<>();

    ReadYourWritesContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    // ------------------------------------------------------------------ what differs per database

    /** Creates tables {@code profile (id bigint primary key, bio varchar(100))} and {@code purchase_order}. */
    abstract List<String> schema();

    /** The database's settings every unit of the test gets, beyond URLs, credentials and pool sizes. */
    abstract void configure(HibernatePersistenceConfiguration cfg);

    /** The {@code read_your_writes} mode that follows replication positions (GTIDs, LSNs). */
    abstract String positionMode();

    /** The type of position a token written in {@link #positionMode()} carries. */
    abstract Class<?> positionType();

    /** The prefix of the lines this test prints. */
    abstract String label();

    // ------------------------------------------------------------------ harness

    @BeforeEach
    void createSchema() throws SQLException {
        for (String ddl : schema()) {
            cluster.update(TestCluster.PRIMARY, ddl);
        }
        StringBuilder insert = new StringBuilder("insert into profile (id, bio) values ");
        for (int u = 0; u < USERS; u++) {
            insert.append(u == 0 ? "" : ", ").append("(").append(u).append(", 'initial')");
        }
        cluster.update(TestCluster.PRIMARY, insert.toString());
        cluster.sync();
    }

    @AfterEach
    void closeFactories() {
        factories.forEach(EntityManagerFactory::close);
    }

    void delayEveryReplica() {
        for (int r = 1; r <= cluster.replicaCount(); r++) {
            cluster.delay(r, 2);
        }
    }

    EntityManagerFactory factory(Map<String, Object> extra) {
        return factory(cluster.jdbcUrl(TestCluster.PRIMARY), cluster.replicaUrls(), extra);
    }

    EntityManagerFactory factory(String primaryUrl, String replicaUrls, Map<String, Object> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration(label())
                .managedClass(Profile.class)
                .managedClass(PurchaseOrder.class)
                .property("jakarta.persistence.jdbc.url", primaryUrl)
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.hikari.maximumPoolSize", Integer.toString(USERS + 5))
                .property(RwSplitSettings.REPLICAS, replicaUrls)
                .property(RwSplitSettings.POOL_PREFIX + "maximumPoolSize", Integer.toString(USERS + 5));
        configure(cfg);
        extra.forEach(cfg::property);
        EntityManagerFactory emf = cfg.createEntityManagerFactory();
        factories.add(emf);
        return emf;
    }

    /** A unit in {@code mode} whose time window (3 s) is longer than the 2 s lag it protects against. */
    EntityManagerFactory lagged(String mode) {
        return factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, mode, RwSplitSettings.READ_YOUR_WRITES_WINDOW, "PT3S"));
    }

    /** Like {@link #lagged}, with no lag limit: lagging replicas stay in rotation (for controls that expect stale reads). */
    EntityManagerFactory inRotation(String mode) {
        return factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, mode, RwSplitSettings.READ_YOUR_WRITES_WINDOW, "PT3S",
                RwSplitSettings.MAX_LAG, "0"));
    }

    /** No lag limit: lagging replicas stay in rotation, so a control's stale reads do not depend on monitor timing. */
    static final Map<String, Object> NO_LAG_LIMIT = Map.of(RwSplitSettings.MAX_LAG, "0");

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

    void report(String what, Outcome outcome) {
        System.out.println("[" + label() + "] " + what + ": " + outcome);
    }

    // ------------------------------------------------------------------ the stories, on every database

    @Test
    void profileEditsAndOrdersAreNeverStaleByPositionWithEveryReplicaTwoSecondsBehind() throws Exception {
        delayEveryReplica();
        EntityManagerFactory emf = lagged(positionMode());
        Outcome profile = run(emf, emf, Consistency.readYourWrites(), PROFILE);
        Outcome orders = run(emf, emf, Consistency.readYourWrites(), orders());
        report("profile, delay 2s, " + positionMode() + " mode", profile);
        report("orders, delay 2s, " + positionMode() + " mode", orders);
        assertEquals(0, profile.stale(), profile.toString());
        assertEquals(0, orders.stale(), orders.toString());
    }

    @Test
    void profileEditsAndOrdersAreNeverStaleInTimeModeWithEveryReplicaTwoSecondsBehind() throws Exception {
        delayEveryReplica();
        EntityManagerFactory emf = lagged("time");
        Outcome profile = run(emf, emf, Consistency.readYourWrites(), PROFILE);
        Outcome orders = run(emf, emf, Consistency.readYourWrites(), orders());
        report("profile, delay 2s, time mode", profile);
        report("orders, delay 2s, time mode", orders);
        assertEquals(0, profile.stale(), profile.toString());
        assertEquals(0, profile.replicaReads(), profile.toString());
        assertEquals(0, orders.stale(), orders.toString());
    }

    @Test
    void eventualReadsAreStaleSoTheStoriesCanFail() throws Exception {
        delayEveryReplica();
        // the lagging replicas stay in rotation (no lag limit): with max_lag the monitor would eject them a second or
        // so after the unit starts, and whether the stories met them would depend on how fast the machine is
        EntityManagerFactory first = inRotation(positionMode());
        Outcome profile = run(first, first, Consistency.eventual(), PROFILE);
        EntityManagerFactory second = inRotation(positionMode());
        Outcome orders = run(second, second, Consistency.eventual(), orders());
        report("profile, delay 2s, EVENTUAL", profile);
        report("orders, delay 2s, EVENTUAL", orders);
        assertTrue(profile.stale() > 0, profile.toString());
        assertTrue(orders.stale() > 0, orders.toString());
    }

    @Test
    void withoutLagMostReadAfterWriteReadsAreServedByReplicasByPosition() throws Exception {
        EntityManagerFactory emf = factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, positionMode()));
        Outcome profile = run(emf, emf, Consistency.readYourWrites(), PROFILE);
        Outcome orders = run(emf, emf, Consistency.readYourWrites(), orders());
        report("profile, no delay, " + positionMode() + " mode", profile);
        report("orders, no delay, " + positionMode() + " mode", orders);
        assertEquals(0, profile.stale() + orders.stale());
        assertTrue(profile.replicaShare() > 0.5, profile.toString());
        assertTrue(orders.replicaShare() > 0.5, orders.toString());
    }

    @Test
    void theTimeWindowSendsEveryReadAfterWriteToThePrimary() throws Exception {
        EntityManagerFactory emf = factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, "time"));
        Outcome profile = run(emf, emf, Consistency.readYourWrites(), PROFILE);
        report("profile, no delay, time mode", profile);
        assertEquals(0, profile.stale(), profile.toString());
        assertEquals(0.0, profile.replicaShare(), profile.toString());
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
        for (String mode : new String[] {positionMode(), "time"}) {
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
        EntityManagerFactory a = factory(NO_LAG_LIMIT);
        EntityManagerFactory b = factory(NO_LAG_LIMIT);
        Outcome o = run(a, b, Consistency.readYourWrites(), PROFILE);
        report("profile written via A, read via B, memory stores (control)", o);
        assertTrue(o.stale() > 0, o.toString());
    }

    @Test
    void aTokenCarriesThePositionAcrossInstances() throws Exception {
        delayEveryReplica();
        Map<String, Object> shared = new java.util.HashMap<>(NO_LAG_LIMIT);
        shared.put(RwSplitSettings.TOKEN_SECRET, "a-token-secret-both-instances-share");
        EntityManagerFactory a = factory(shared);
        EntityManagerFactory b = factory(shared);
        EntityManagerFactory keyless = factory(NO_LAG_LIMIT);   // its own random key: A's tokens are not its own
        int staleWithToken = 0;
        int staleWithout = 0;
        int untrustedElsewhere = 0;
        for (int i = 0; i < 20; i++) {
            String token;
            try (EntityManager writer = a.createEntityManager()) {
                writer.getTransaction().begin();
                writer.find(Profile.class, 0L).bio = "t" + i;
                writer.getTransaction().commit();
                token = RwSplit.token(writer);
            }
            assertNotNull(token);
            assertInstanceOf(positionType(), io.rwsplit.testing.SignedTokens.content(token).positionOrNull(), token);
            try (EntityManager without = b.createEntityManager()) {
                RwSplit.consistency(without, Consistency.eventual());
                staleWithout += ("t" + i).equals(without.find(Profile.class, 0L).bio) ? 0 : 1;
            }
            try (EntityManager reader = b.createEntityManager()) {
                RwSplit.requireToken(reader, token);
                staleWithToken += ("t" + i).equals(reader.find(Profile.class, 0L).bio) ? 0 : 1;
                assertNotEquals(io.rwsplit.RouteReason.UNTRUSTED_TOKEN_PRIMARY,
                        RwSplit.statistics(reader).lastDecision().reason(), "B shares A's key: the token is trusted");
            }
            try (EntityManager other = keyless.createEntityManager()) {
                RwSplit.requireToken(other, token);
                staleWithToken += ("t" + i).equals(other.find(Profile.class, 0L).bio) ? 0 : 1;
                untrustedElsewhere += RwSplit.statistics(other).lastDecision().reason()
                        == io.rwsplit.RouteReason.UNTRUSTED_TOKEN_PRIMARY ? 1 : 0;
            }
        }
        assertEquals(20, untrustedElsewhere, "another key's tokens are not trusted: their reads go to the primary");
        System.out.println("[" + label() + "] token across instances, delay 2s: " + staleWithToken
                + " stale of 20 with the token, " + staleWithout + " stale of 20 without");
        assertEquals(0, staleWithToken);
        assertTrue(staleWithout > 0);
    }
}
