package io.rwsplit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

import io.rwsplit.internal.consistency.SessionConsistency;
import io.rwsplit.internal.hibernate.FactoryRouters;
import io.rwsplit.internal.hibernate.RwSplitSession;
import io.rwsplit.internal.hibernate.RwSplitSessions;
import io.rwsplit.Intent;
import io.rwsplit.internal.route.Router;
import io.rwsplit.internal.stats.CombinedStatistics;

/**
 * The public facade of hibernate-rwsplit: statistics and explicit routing intent for an
 * {@link EntityManager} (or Hibernate {@code Session}, which is one) and an {@link EntityManagerFactory}
 * (or {@code SessionFactory}).
 */
public final class RwSplit {

    private RwSplit() {
    }

    /** Routing statistics of one session. */
    public static RoutingStatistics statistics(EntityManager entityManager) {
        return session(entityManager).statistics();
    }

    /** Routing statistics of a whole factory (all tenants added up for a multi-tenant factory). */
    public static RoutingStatistics statistics(EntityManagerFactory factory) {
        List<Router> routers = routers(factory);
        return routers.size() == 1 ? routers.get(0).statistics()
                : new CombinedStatistics(routers.stream().map(Router::statistics).toList());
    }

    /**
     * The factory's statistics as text for a log: the share of reads the replicas served, where reads stay on the
     * primary (the read shapes with most primary reads, and their reasons), and the top query shapes with their replica
     * share and mean execution times. {@code log.info(RwSplit.report(emf))} when you want to look.
     */
    public static String report(EntityManagerFactory factory) {
        List<Router> routers = routers(factory);
        return io.rwsplit.internal.stats.StatisticsReport.of(routers.size() == 1 ? routers.get(0).label() : "tenants",
                statistics(factory));
    }

    /**
     * Runs {@code work} with every statement of this session on the primary (reason {@code PRIMARY_HINT}).
     * Nested calls are allowed; the innermost wins and the outer intent is restored afterwards, also on exceptions.
     */
    public static <T> T onPrimary(EntityManager entityManager, Supplier<T> work) {
        return with(entityManager, Intent.PRIMARY, work);
    }

    /**
     * Runs {@code work} allowing its reads to go to a replica, including the reads of a transaction that
     * begins inside the block (then a read-only-by-preference transaction: its first write moves the rest
     * of it to the primary). Writes, locks, flushes and read-write transactions begun outside the block
     * still go to the primary.
     */
    public static <T> T onReplica(EntityManager entityManager, Supplier<T> work) {
        return with(entityManager, Intent.REPLICA, work);
    }

    /** {@link #onPrimary(EntityManager, Supplier)} for work that returns nothing. */
    public static void onPrimary(EntityManager entityManager, Runnable work) {
        with(entityManager, Intent.PRIMARY, asSupplier(work));
    }

    /** {@link #onReplica(EntityManager, Supplier)} for work that returns nothing. */
    public static void onReplica(EntityManager entityManager, Runnable work) {
        with(entityManager, Intent.REPLICA, asSupplier(work));
    }

    private static Supplier<Void> asSupplier(Runnable work) {
        return () -> {
            work.run();
            return null;
        };
    }

    private static <T> T with(EntityManager entityManager, Intent intent, Supplier<T> work) {
        RwSplitSession session = session(entityManager);
        session.pushIntent(intent);
        try {
            return work.get();
        }
        finally {
            session.popIntent();
        }
    }

    /**
     * The health of the factory's replicas right now: state (UP, LAGGING, DOWN), lag, last error and GTID
     * position per replica, ejection counts, and failovers of the primary that lost writes. An immutable snapshot;
     * cheap to call. For a multi-tenant factory the replicas of all tenants, named {@code tenant/replica}.
     */
    public static io.rwsplit.health.ReplicaHealth health(EntityManagerFactory factory) {
        List<Router> routers = routers(factory);
        if (routers.size() == 1) {
            io.rwsplit.health.ReplicaHealth h = routers.get(0).replicas().health();
            return new io.rwsplit.health.ReplicaHealth(h.replicas(), h.ejections(),
                    routers.get(0).statistics().lostWriteFailovers());
        }
        List<io.rwsplit.health.ReplicaStatus> statuses = new ArrayList<>();
        java.util.Map<String, Long> ejections = new java.util.LinkedHashMap<>();
        long lostWriteFailovers = 0;
        for (Router router : routers) {
            lostWriteFailovers += router.statistics().lostWriteFailovers();
            io.rwsplit.health.ReplicaHealth h = router.replicas().health();
            for (io.rwsplit.health.ReplicaStatus s : h.replicas()) {
                String name = router.label() + "/" + s.name();
                statuses.add(new io.rwsplit.health.ReplicaStatus(name, s.state(), s.lagMicros(), s.lastError(),
                        s.position(), s.observedAtNanos(), s.acceptsWrites()));
                ejections.put(name, h.ejections().get(s.name()));
            }
        }
        return new io.rwsplit.health.ReplicaHealth(statuses, ejections, lostWriteFailovers);
    }

    // ------------------------------------------------------------------ consistency

    /**
     * Sets the consistency level of this session's reads from now on, for the rest of the session (until
     * changed again); returns the previous level so that a caller can restore it. See
     * {@link #withConsistency} for a block form. The default comes from
     * {@link RwSplitSettings#CONSISTENCY} ({@code read_your_writes}).
     */
    public static Consistency consistency(EntityManager entityManager, Consistency level) {
        return consistencyOf(entityManager).level(level);
    }

    /** Runs {@code work} with {@code level}, restoring the session's previous level afterwards (also on exceptions). */
    public static <T> T withConsistency(EntityManager entityManager, Consistency level, Supplier<T> work) {
        SessionConsistency c = consistencyOf(entityManager);
        Consistency previous = c.level(level);
        try {
            return work.get();
        }
        finally {
            c.level(previous);
        }
    }

    /** {@link #withConsistency(EntityManager, Consistency, Supplier)} for work that returns nothing. */
    public static void withConsistency(EntityManager entityManager, Consistency level, Runnable work) {
        withConsistency(entityManager, level, asSupplier(work));
    }

    /**
     * Names this session's consistency scope (a user id, an HTTP session id): its commits are recorded for the
     * scope, and its reads honour the scope's writes, also those of earlier sessions and of other application
     * instances sharing the store, instead of every write of the unit (the default scope, see
     * {@link RwSplitSettings#CONSISTENCY_SCOPE}). Call it before the session's first read; {@code null} returns the
     * session to the default scope. Overrides {@link RwSplitSettings#SCOPE_RESOLVER} for this session.
     */
    public static void scope(EntityManager entityManager, String key) {
        if (key != null && key.isBlank()) {
            throw new IllegalArgumentException("scope key must not be blank");
        }
        consistencyOf(entityManager).scope(key);
    }

    /**
     * An opaque token of the last committed write of this session's scope (GTID position and/or commit time),
     * or {@code null} when it has none, signed with {@link RwSplitSettings#TOKEN_SECRET}. Hand it to another
     * session, service or request (cookie, header) and pass it to {@link #requireToken} there.
     */
    public static String token(EntityManager entityManager) {
        return consistencyOf(entityManager).token();
    }

    /**
     * Makes this session's reads see the write {@code token} stands for (as READ_YOUR_WRITES does for the
     * session's own writes), in addition to its scope's writes. A token this unit cannot trust (signed with another
     * {@link RwSplitSettings#TOKEN_SECRET}, altered, or an unsigned one from the future, older than the store keeps
     * scopes, or beyond any position the cluster reported) sends the session's reads to the primary, reason
     * {@code UNTRUSTED_TOKEN_PRIMARY}.
     *
     * @throws IllegalArgumentException naming the token when it was not produced by {@link #token}
     */
    public static void requireToken(EntityManager entityManager, String token) {
        if (token == null) {
            throw new IllegalArgumentException("consistency token must not be null");
        }
        consistencyOf(entityManager).requireToken(token);
    }

    private static SessionConsistency consistencyOf(EntityManager entityManager) {
        SessionConsistency c = session(entityManager).consistency();
        if (c == null) {
            throw new IllegalStateException("hibernate-rwsplit: this session has no consistency state");
        }
        return c;
    }

    /** The routing part of a session; fails clearly when the module is not active for its factory. */
    static RwSplitSession session(EntityManager entityManager) {
        SharedSessionContractImplementor session = entityManager.unwrap(SharedSessionContractImplementor.class);
        RwSplitSession extension = RwSplitSessions.find(session);
        if (extension == null) {
            throw new IllegalStateException("hibernate-rwsplit is not active for this persistence unit: set '"
                    + RwSplitSettings.REPLICAS + "' (or '" + RwSplitSettings.TENANTS + "') in its properties");
        }
        return extension;
    }

    private static List<Router> routers(EntityManagerFactory factory) {
        List<Router> routers = FactoryRouters.of(factory.unwrap(SessionFactoryImplementor.class));
        if (routers.isEmpty()) {
            throw new IllegalStateException("hibernate-rwsplit is not active for this persistence unit: set '"
                    + RwSplitSettings.REPLICAS + "' (or '" + RwSplitSettings.TENANTS + "') in its properties");
        }
        return routers;
    }
}
