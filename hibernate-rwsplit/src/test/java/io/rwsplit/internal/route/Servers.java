package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.Fallback;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.health.HealthPolicy;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.H2Server;

/**
 * A router over in-memory H2 databases ({@link H2Server}s), for tests of the routing connection below Hibernate: the
 * primary and each replica have a table {@code who(name)} whose one row names the server ("primary", "r1", ...), so
 * every read shows where it ran. Each server's connections can be made to fail and count their commits.
 */
final class Servers implements AutoCloseable {

    final FakeClock clock = new FakeClock();
    final H2Server primary;
    final List<H2Server> replicas = new ArrayList<>();
    final List<ReplicaNode> nodes = new ArrayList<>();
    final ReplicaSet set;
    final Router router;
    /** Which server the primary's connections are on, as a driver that moves them says it; null: it cannot say. */
    volatile Object primaryAddress;
    /** Run in the thread that takes a primary connection from its pool, before it gets one; null: nothing. */
    volatile Runnable onPrimaryAcquire;
    /** Primary connections given back for good ({@link PrimarySource#evict}). */
    final java.util.concurrent.atomic.AtomicInteger discarded = new java.util.concurrent.atomic.AtomicInteger();
    /** Primary connections given back to be lent again ({@link PrimarySource#release}). */
    final java.util.concurrent.atomic.AtomicInteger released = new java.util.concurrent.atomic.AtomicInteger();

    Servers(int replicaCount, String balancer) throws SQLException {
        this(replicaCount, balancer, false);
    }

    /** @param consistency whether sessions track consistency ({@link #session}), with default settings */
    Servers(int replicaCount, String balancer, boolean consistency) throws SQLException {
        this(replicaCount, balancer, consistency ? Map.of() : null);
    }

    /**
     * @param consistency the settings ({@code hibernate.rwsplit.*} keys) of the consistency sessions track
     *                    ({@link #session}), or {@code null}: sessions track none
     */
    Servers(int replicaCount, String balancer, Map<String, Object> consistency) throws SQLException {
        this(replicaCount, balancer, consistency, 100);
    }

    /**
     * @param consistency as above
     * @param auditSample the stale-read audit checks one replica read in this many (0: none)
     */
    Servers(int replicaCount, String balancer, Map<String, Object> consistency, int auditSample) throws SQLException {
        this(new int[replicaCount], balancer, consistency, auditSample);
    }

    /** Replicas r1, r2, ... of the tiers {@code tiers} (0: the default, 1), round robin, no consistency tracked. */
    static Servers tiered(int... tiers) throws SQLException {
        return new Servers(tiers, "round_robin", null, 100);
    }

    /** As {@link #tiered(int...)}, sessions tracking consistency with default settings ({@link #session}). */
    static Servers tieredTrackingConsistency(int... tiers) throws SQLException {
        return new Servers(tiers, "round_robin", Map.of(), 100);
    }

    private Servers(int[] tiers, String balancer, Map<String, Object> consistency, int auditSample) throws SQLException {
        primary = new H2Server("primary", schema("primary"));
        for (int i = 1; i <= tiers.length; i++) {
            H2Server replica = new H2Server("r" + i, schema("r" + i));
            replicas.add(replica);
            nodes.add(new ReplicaNode(i - 1, replica.name, 1, Math.max(1, tiers[i - 1]), replica, false,
                    replica.control));
        }
        set = new ReplicaSet("test", nodes, balancer(balancer), clock,
                new HealthPolicy(2, 1_000_000, 1_000_000_000L));
        router = new Router("test", new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                Runnable hook = onPrimaryAcquire;
                if (hook != null) {
                    hook.run();
                }
                return primary.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                released.incrementAndGet();
                connection.close();
            }

            @Override
            public void evict(Connection connection) {
                discarded.incrementAndGet();
            }
        }, set, Fallback.PRIMARY, consistency == null ? null
                : new CausalReads(ConsistencyRuntime.create(consistency, clock), "test", set.epochs()),
                io.rwsplit.spi.TransactionStatus.NONE, io.rwsplit.spi.RoutingIntentSource.NONE,
                io.rwsplit.internal.config.HealthConfig.DEFAULTS, Lexing.ANY, new io.rwsplit.internal.stats.QueryShapes(100),
                List.of(), auditSample, c -> primaryAddress);
    }

    /**
     * The built-in balancer {@code name}; {@code round_robin_counting}: round robin as a balancer written for an
     * application is, which reads the statements in progress ({@link io.rwsplit.spi.LoadBalancer#readsInFlight()}), so
     * that they are counted.
     */
    static io.rwsplit.spi.LoadBalancer balancer(String name) {
        if (name.equals("round_robin_counting")) {
            io.rwsplit.spi.LoadBalancer roundRobin = LoadBalancers.create("round_robin");
            return roundRobin::choose;
        }
        return LoadBalancers.create(name);
    }

    /**
     * The tables of the server {@code name}: {@code who} names it, {@code other.who} names it "name/other" (a
     * session setting that shows where it was applied: after SET SCHEMA other, who answers "name/other").
     */
    private static List<String> schema(String name) {
        return List.of(
                "create table who (id int primary key, name varchar(20))",
                "insert into who values (1, '" + name + "')",
                "create table item (id int auto_increment primary key, label varchar(20))",
                "create schema other",
                "create table other.who (id int primary key, name varchar(20))",
                "insert into other.who values (1, '" + name + "/other')");
    }

    /** A session with its own consistency state (needs consistency), at {@code level}. */
    SessionRouting session(io.rwsplit.Consistency level) {
        SessionRouting session = new SessionRouting(null, router.causal().newSession());
        session.consistency().level(level);
        return session;
    }

    /**
     * A session whose consistency state is made when first needed (needs consistency), at the default level, as a
     * Hibernate session's is.
     */
    SessionRouting lazySession() {
        return new SessionRouting((io.rwsplit.internal.stats.StatisticsRecorder) null) {
            @Override
            protected io.rwsplit.internal.consistency.CausalReads causal() {
                return router.causal();
            }
        };
    }

    /** Whether {@code session}'s consistency state is made (or it has none), read from its field. */
    static boolean consistencyMade(SessionRouting session) {
        try {
            java.lang.reflect.Field state = SessionRouting.class.getDeclaredField("consistencyState");
            java.lang.reflect.Field made = SessionRouting.class.getDeclaredField("MADE");
            state.setAccessible(true);
            made.setAccessible(true);
            return state.getByte(session) == made.getByte(null);
        }
        catch (ReflectiveOperationException e) {
            throw new AssertionError("SessionRouting's fields changed", e);
        }
    }

    /** A new logical connection of {@code session}, as Hibernate gets one for it. */
    RoutingConnection open(SessionRouting session) {
        router.beginAcquisition(session);
        try {
            return router.open(false);
        }
        finally {
            router.endAcquisition(session);
        }
    }

    /** A new logical connection, as Hibernate gets one. */
    RoutingConnection open() {
        return router.open(false);
    }

    /** Moves the clock past the read-your-writes time window of every write so far (time mode: H2 has no positions). */
    void pastEveryTimeWindow() {
        clock.advanceMillis(10_000);
    }

    /** Takes replica {@code index} out of rotation. */
    void down(int index) {
        set.markDown(nodes.get(index), new SQLException("simulated: gone", "08006"));
    }

    /** Brings replica {@code index} back after the recovery period. */
    void up(int index) {
        set.probed(nodes.get(index), io.rwsplit.spi.LagSample.of(0), null);
        clock.advanceMillis(1000);
        set.probed(nodes.get(index), io.rwsplit.spi.LagSample.of(0), null);
        if (!set.isUp(nodes.get(index))) {
            throw new IllegalStateException("replica " + index + " did not come back");
        }
    }

    /** Which server answered {@code select name from who}, through {@code c}. */
    static String who(Connection c) throws SQLException {
        try (var ps = c.prepareStatement("select name from who where id = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    DataSource replica(int index) {
        return replicas.get(index);
    }

    @Override
    public void close() throws SQLException {
        for (H2Server server : replicas) {
            server.shutdown();
        }
        primary.shutdown();
    }
}
