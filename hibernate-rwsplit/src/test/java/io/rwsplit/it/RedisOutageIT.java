package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.consistency.RedisConsistencyStore;
import io.rwsplit.spi.Clock;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * Two application instances share a scope through a Redis server that stops for 5 s and starts again empty, while
 * instance A writes the scope and both read it back (a new {@code EntityManager} each time) from replicas 1 s
 * behind: no read is stale, and the writes made while Redis was away reach it once it is back.
 */
@ReplicatedCluster
class RedisOutageIT {

    private static final int USERS = 4;

    private final TestCluster cluster;
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final List<EntityManagerFactory> factories = new ArrayList<>();
    private PrivateRedis redis;

    RedisOutageIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void setUp() throws Exception {
        cluster.update(TestCluster.PRIMARY, "create table profile (id bigint primary key, bio varchar(100))");
        for (int u = 0; u <= USERS; u++) { // user USERS writes once, while Redis is away
            cluster.update(TestCluster.PRIMARY, "insert into profile (id, bio) values (" + u + ", 'initial')");
        }
        cluster.sync();
        redis = PrivateRedis.start();
    }

    @AfterEach
    void tearDown() throws Exception {
        factories.forEach(EntityManagerFactory::close);
        redis.close();
    }

    private EntityManagerFactory instance() {
        EntityManagerFactory emf = new HibernatePersistenceConfiguration("redis-outage-it")
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property(RwSplitSettings.REPLICAS, cluster.replicaUrls())
                // lagging replicas stay in rotation: only read-your-writes keeps reads off them
                .property(RwSplitSettings.MAX_LAG, "0")
                .property(RwSplitSettings.CONSISTENCY_STORE, "redis")
                .property(RwSplitSettings.REDIS_URL, redis.url())
                .createEntityManagerFactory();
        factories.add(emf);
        return emf;
    }

    /** What the reads of one phase saw. */
    private static final class Phase {
        final String name;
        int pairs;
        int staleOnA;
        int staleOnB;
        final Map<RouteReason, Integer> reasons = new EnumMap<>(RouteReason.class);

        Phase(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name + ": " + pairs + " pairs, stale on A " + staleOnA + ", stale on B " + staleOnB
                    + ", read reasons " + reasons;
        }
    }

    private int written;

    /** A writes each user's bio; B, then A, read it back in new sessions of the user's scope, until {@code until}. */
    private void writeAndReadBack(EntityManagerFactory a, EntityManagerFactory b, Phase phase, long until) {
        while (System.nanoTime() - until < 0) {
            int user = written++ % USERS;
            String bio = "v" + written;
            String scope = scope(user);
            write(a, scope, user, bio);
            phase.pairs++;
            if (!bio.equals(readBack(b, scope, user, phase))) {
                phase.staleOnB++;
            }
            if (!bio.equals(readBack(a, scope, user, phase))) {
                phase.staleOnA++;
            }
        }
        System.out.println("[redis-outage-it] " + phase);
    }

    private static void write(EntityManagerFactory emf, String scope, int user, String bio) {
        try (EntityManager writer = emf.createEntityManager()) {
            RwSplit.scope(writer, scope);
            writer.getTransaction().begin();
            writer.find(Profile.class, (long) user).bio = bio;
            writer.getTransaction().commit();
        }
    }

    private String scope(int user) {
        return "user-" + run + "-" + user;
    }

    private static String readBack(EntityManagerFactory emf, String scope, int user, Phase phase) {
        try (EntityManager reader = emf.createEntityManager()) {
            RwSplit.scope(reader, scope);
            String bio = reader.find(Profile.class, (long) user).bio;
            phase.reasons.merge(RwSplit.statistics(reader).lastDecision().reason(), 1, Integer::sum);
            return bio;
        }
    }

    @Test
    void writesWhileRedisIsAwayAreNeverReadStaleAndReachItWhenItIsBack() throws Exception {
        for (int r = 1; r <= cluster.replicaCount(); r++) {
            cluster.delay(r, 1);
        }
        EntityManagerFactory a = instance();
        EntityManagerFactory b = instance();
        long second = Duration.ofSeconds(1).toNanos();

        Phase before = new Phase("Redis up");
        writeAndReadBack(a, b, before, System.nanoTime() + 2 * second);

        redis.stop();
        Phase away = new Phase("Redis stopped");
        write(a, scope(USERS), USERS, "away");
        writeAndReadBack(a, b, away, System.nanoTime() + 5 * second);

        redis.startAgain();
        Phase back = new Phase("Redis started again, empty");
        writeAndReadBack(a, b, back, System.nanoTime() + 4 * second);

        assertEquals(0, before.staleOnA + before.staleOnB, before.toString());
        assertEquals(0, away.staleOnA + away.staleOnB, away.toString());
        assertEquals(0, back.staleOnA + back.staleOnB, back.toString());
        assertTrue(away.pairs > 10, away.toString());
        assertTrue(away.reasons.getOrDefault(RouteReason.READ_YOUR_WRITES_PRIMARY, 0) > 0,
                "while Redis is away, reads of the scope use the primary: " + away);

        // the write of a scope written only while Redis was away reached Redis once it was back (read through a
        // store of the test's own, which keys scopes as every instance does)
        try (RedisConsistencyStore store = new RedisConsistencyStore(redis.url(), "rwsplit:", Duration.ofMinutes(1),
                Duration.ofSeconds(2), Clock.SYSTEM)) {
            assertNotNull(store.read("default:" + scope(USERS)), "a scope written while Redis was away is in Redis");
        }
    }
}
