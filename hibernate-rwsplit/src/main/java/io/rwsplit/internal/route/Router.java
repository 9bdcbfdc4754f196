package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.Target;
import io.rwsplit.internal.config.Fallback;
import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.health.ServerAddress;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.TransactionStatus;
import io.rwsplit.internal.stats.FactoryStatistics;
import io.rwsplit.internal.stats.QueryShapes;

/**
 * Routing for one primary and its replicas: hands out {@link RoutingConnection}s and holds what they
 * share (replicas, statistics, fallback policy). Thread-safe.
 */
public final class Router {

    /** The decision log: its name is what users configure (docs/observability.md), so it outlived the package's move. */
    static final Logger log = LoggerFactory.getLogger("io.rwsplit.route");

    private final String label;
    private final PrimarySource primary;
    private final ReplicaSet replicas;
    private final Fallback fallback;
    private final FactoryStatistics statistics;
    private final StatementRoute[] primaryRoutes = new StatementRoute[RouteReason.values().length];
    /** Per replica (by index), per reason: the shared routes to it. */
    private final StatementRoute[][] replicaRoutes;
    private final SessionRouting detached;
    private final io.rwsplit.internal.consistency.CausalReads causal;
    private final TransactionStatus transactionStatus;
    private final RoutingIntentSource intentSource;
    /** Hands the session that is acquiring a connection to {@link #open} on the same thread. */
    private final AcquiringSessions acquiring = new AcquiringSessions();
    /** Closed logical connections waiting to serve the next session. */
    private final IdleConnections idle = new IdleConnections();
    private final ClassificationCache classifications;
    private final ReadAudit audit;
    private final Lexing lexing;
    /** Whether the database undoes a session {@code SET} on rollback (PostgreSQL); null until first asked. */
    private volatile Boolean transactionalSettings;
    private final long failoverWaitNanos;
    private final long failoverPauseNanos;
    /** {@link #primaryConnectionFailed}: since when (nanoTime, odd so never 0), or 0 when a writable primary answers. */
    private final java.util.concurrent.atomic.AtomicLong primarySuspectSince = new java.util.concurrent.atomic.AtomicLong();
    /** Where the primary was seen, for drivers that move a connection without an error. */
    private final PrimaryHosts primaryHosts;

    public Router(String label, PrimarySource primary, ReplicaSet replicas, Fallback fallback) {
        this(label, primary, replicas, fallback, null);
    }

    /** @param causal consistency for these replicas, or {@code null} to route every read as EVENTUAL */
    public Router(String label, PrimarySource primary, ReplicaSet replicas, Fallback fallback,
                  io.rwsplit.internal.consistency.CausalReads causal) {
        this(label, primary, replicas, fallback, causal, TransactionStatus.NONE, RoutingIntentSource.NONE);
    }

    /**
     * @param causal            consistency for these replicas, or {@code null} to route every read as EVENTUAL
     * @param transactionStatus the transactions that bypass {@code setAutoCommit} (JTA)
     * @param intentSource      the intent of sessions that were given none themselves (container interceptors)
     */
    public Router(String label, PrimarySource primary, ReplicaSet replicas, Fallback fallback,
                  io.rwsplit.internal.consistency.CausalReads causal, TransactionStatus transactionStatus,
                  RoutingIntentSource intentSource) {
        this(label, primary, replicas, fallback, causal, transactionStatus, intentSource, HealthConfig.DEFAULTS, Lexing.ANY);
    }

    /**
     * @param causal            consistency for these replicas, or {@code null} to route every read as EVENTUAL
     * @param transactionStatus the transactions that bypass {@code setAutoCommit} (JTA)
     * @param intentSource      the intent of sessions that were given none themselves (container interceptors)
     * @param health            probe and breaker settings: how long a read waits for a failover of the primary
     * @param lexing            the lexical rules of the database's SQL ({@link Lexing#of} the replicas' URLs)
     */
    public Router(String label, PrimarySource primary, ReplicaSet replicas, Fallback fallback,
                  io.rwsplit.internal.consistency.CausalReads causal, TransactionStatus transactionStatus,
                  RoutingIntentSource intentSource, HealthConfig health, Lexing lexing) {
        this(label, primary, replicas, fallback, causal, transactionStatus, intentSource, health, lexing,
                new QueryShapes((Integer) io.rwsplit.internal.config.SettingsTable.QUERY_SHAPES.defaultValue(),
                        (Integer) io.rwsplit.internal.config.SettingsTable.TIME_SAMPLE.defaultValue()),
                java.util.List.of(), (Integer) io.rwsplit.internal.config.SettingsTable.AUDIT_SAMPLE.defaultValue());
    }

    /**
     * @param causal            consistency for these replicas, or {@code null} to route every read as EVENTUAL
     * @param transactionStatus the transactions that bypass {@code setAutoCommit} (JTA)
     * @param intentSource      the intent of sessions that were given none themselves (container interceptors)
     * @param health            probe and breaker settings: how long a read waits for a failover of the primary
     * @param lexing            the lexical rules of the database's SQL ({@link Lexing#of} the replicas' URLs)
     * @param shapes            where the statements' query shapes are counted
     * @param rules             the rules by query shape
     * @param auditSample       the stale-read audit checks one replica read in this many (0: none)
     */
    public Router(String label, PrimarySource primary, ReplicaSet replicas, Fallback fallback,
                  io.rwsplit.internal.consistency.CausalReads causal, TransactionStatus transactionStatus,
                  RoutingIntentSource intentSource, HealthConfig health, Lexing lexing, QueryShapes shapes,
                  java.util.List<io.rwsplit.internal.config.ShapeRule> rules, int auditSample) {
        this(label, primary, replicas, fallback, causal, transactionStatus, intentSource, health, lexing, shapes, rules,
                auditSample, ServerAddress.ofDrivers());
    }

    /**
     * @param addresses which server a primary connection is on now, for drivers that move connections without an
     *                  error ({@link #primaryConnectionMoved})
     */
    public Router(String label, PrimarySource primary, ReplicaSet replicas, Fallback fallback,
                  io.rwsplit.internal.consistency.CausalReads causal, TransactionStatus transactionStatus,
                  RoutingIntentSource intentSource, HealthConfig health, Lexing lexing, QueryShapes shapes,
                  java.util.List<io.rwsplit.internal.config.ShapeRule> rules, int auditSample,
                  ServerAddress addresses) {
        this.primaryHosts = new PrimaryHosts(label, addresses);
        this.audit = new ReadAudit(auditSample);
        this.classifications = new ClassificationCache(lexing, shapes, rules);
        this.lexing = lexing;
        this.failoverWaitNanos = health.failoverWait().toNanos();
        this.failoverPauseNanos = health.probeInterval().toNanos();
        this.causal = causal;
        this.label = label;
        this.transactionStatus = transactionStatus;
        this.intentSource = intentSource;
        this.primary = primary;
        this.replicas = replicas;
        this.fallback = fallback;
        this.statistics = new FactoryStatistics(replicas.names(),
                causal == null ? io.rwsplit.internal.stats.ConsistencyCounts.NONE : causal, shapes, audit);
        int slots = 0;
        for (ReplicaNode node : replicas.nodes()) {
            slots = Math.max(slots, node.index() + 1);
        }
        this.replicaRoutes = new StatementRoute[slots][RouteReason.values().length];
        for (RouteReason reason : RouteReason.values()) {
            if (reason.target() == Target.PRIMARY) {
                primaryRoutes[reason.ordinal()] = StatementRoute.of(RouteDecision.primary(reason), null);
            }
            else {
                for (ReplicaNode node : replicas.nodes()) {
                    replicaRoutes[node.index()][reason.ordinal()] = StatementRoute.of(node.decision(reason), node);
                }
            }
        }
        this.detached = new SessionRouting();
    }

    /** Called by a session right before Hibernate asks for its connection (same thread). */
    public void beginAcquisition(SessionRouting session) {
        acquiring.begin(session);
    }

    /** Called by a session right after Hibernate obtained its connection, or failed to. */
    public void endAcquisition(SessionRouting session) {
        acquiring.end(session);
    }

    /**
     * A new lazy routing connection for the session that is acquiring one on this thread (or a detached
     * one for Hibernate's own work outside sessions), taken out of the thread's slot. No physical connection is
     * opened yet.
     *
     * @param readOnlySession whether it was asked for through {@code getReadOnlyConnection()}
     */
    public RoutingConnection open(boolean readOnlySession) {
        SessionRouting session = acquiring.take();
        if (session == null) {
            session = detached;
        }
        ConnectionRouting parts = idle.take();
        return parts != null ? new RoutingConnection(parts, session, readOnlySession)
                : new RoutingConnection(this, session, readOnlySession);
    }

    /** A closed connection's parts, holding nothing of their session, wait to serve the next one ({@link #open}). */
    void idle(ConnectionRouting closed) {
        idle.put(closed);
    }

    /** How many closed connections wait to serve a session. */
    int idleConnections() {
        return idle.size();
    }

    /** Consistency for these replicas, or {@code null}. */
    public io.rwsplit.internal.consistency.CausalReads causal() {
        return causal;
    }

    TransactionStatus transactionStatus() {
        return transactionStatus;
    }

    /** The intent of sessions that were given none themselves. */
    public RoutingIntentSource intentSource() {
        return intentSource;
    }

    /** How SQL strings were classified, shared by every connection of this router. */
    ClassificationCache classifications() {
        return classifications;
    }

    /** The rules by query shape as configured: a rule by named query ({@code match=query:...}) still names its query. */
    public java.util.List<io.rwsplit.internal.config.ShapeRule> configuredRules() {
        return classifications.configuredRules();
    }

    /**
     * Routes from now on under {@code rules}: the configured ones with each named query resolved to the comment that
     * opens its SQL, once the session factory knows its named queries. Statements classified before are classified
     * again.
     */
    public void useRules(java.util.List<io.rwsplit.internal.config.ShapeRule> rules) {
        classifications.useRules(rules);
    }

    /**
     * Whether the database behind {@code primary} undoes a session {@code SET} when the transaction rolls back
     * (PostgreSQL does, MariaDB and MySQL do not); read once from the driver's metadata.
     */
    boolean settingsFollowTransactions(Connection primary) throws SQLException {
        Boolean transactional = transactionalSettings;
        if (transactional == null) {
            String product = primary.getMetaData().getDatabaseProductName();
            transactional = product != null && product.toLowerCase(java.util.Locale.ROOT).contains("postgresql");
            transactionalSettings = transactional;
        }
        return transactional;
    }

    public String label() {
        return label;
    }

    public FactoryStatistics statistics() {
        return statistics;
    }

    public ReplicaSet replicas() {
        return replicas;
    }

    public List<String> replicaNames() {
        return replicas.names();
    }

    PrimarySource primary() {
        return primary;
    }

    /** How long an autocommit read that lost the primary waits for it, or for a replica that may serve it. */
    long failoverWaitNanos() {
        return failoverWaitNanos;
    }

    /** The pause between two attempts of such a read: the probe interval. */
    long failoverPauseNanos() {
        return failoverPauseNanos;
    }

    /**
     * A primary connection broke under a read (a failover may be under way): until a writable server is seen
     * behind the primary URL again ({@link #primaryAnswered}), a read the primary must serve checks that the server
     * it reached is writable. A multi-host URL (MariaDB {@code sequential:}, pgjdbc's host list) leads to the next
     * host as soon as the primary is gone, a replica that is read-only and may lack writes until it is promoted.
     */
    void primaryConnectionFailed() {
        primaryHosts.forget();
        primarySuspectSince.compareAndSet(0, replicas.clock().nanoTime() | 1);
    }

    /**
     * The monitor looked at the server behind the primary URL, on a connection it obtained at {@code askedAtNanos}
     * and found on {@code address} ({@link ServerAddress}, or null), the primary {@code identity} there (null when
     * read-only): a read-only one keeps (or makes) reads the primary must serve check the server; a writable one ends
     * that, unless a primary connection broke after the monitor asked. Another primary than before (a failover)
     * replaces the addresses the primary was seen at.
     */
    public void primaryAnswered(boolean writable, long askedAtNanos, Object address, String identity) {
        if (!writable) {
            primaryHosts.forget();
            primarySuspectSince.compareAndSet(0, askedAtNanos | 1);
            return;
        }
        Object[] known = primaryHosts.known();
        long since = primarySuspectSince.get();
        if (since != 0 && askedAtNanos - since < 0) {
            return;   // asked before a primary connection broke: it tells nothing of the server there now
        }
        if (since != 0) {
            primarySuspectSince.compareAndSet(since, 0);
        }
        primaryHosts.answered(known, address, identity);
    }

    /**
     * Told why the position of a commit could not be read on its connection: a connection error there means the
     * primary may be gone, and a multi-host URL may already have led the connection (MariaDB Connector/J reconnects
     * in place) to a read-only replica that lacks the write. The write's readers use the time rule on the primary,
     * so reads the primary must serve check that the server is writable ({@link #primaryConnectionFailed}).
     */
    java.util.function.Consumer<Exception> commitCaptureFailed() {
        return commitCaptureFailed;
    }

    private final java.util.function.Consumer<Exception> commitCaptureFailed = e -> {
        if (e instanceof SQLException sql && ConnectionErrors.isConnectionError(sql)) {
            primaryConnectionFailed();
        }
    };

    /**
     * Whether the primary connection {@code c} is on a read-only server now, where its driver moved it without an error
     * ({@link PrimaryHosts#moved}): then the primary is suspected ({@link #primaryConnectionFailed}).
     */
    boolean primaryConnectionMoved(Connection c) throws SQLException {
        if (!primaryHosts.moved(c)) {
            return false;
        }
        primaryConnectionFailed();
        return true;
    }

    /**
     * Gives back a primary connection for good: one its driver moved to a replica. Its pool is told to close it
     * ({@link PrimarySource#evict}) and its driver's connection is closed under the pool's, so that the pool discards
     * it instead of lending it again; then it is released.
     */
    void discardPrimary(Connection c) {
        try {
            primary.evict(c);
        }
        catch (RuntimeException e) {
            // closed below either way
        }
        try {
            // also where the pool could not evict it (a proxy over its proxy): HikariCP's check of it then fails
            primaryHosts.driverConnection(c).close();
        }
        catch (SQLException | RuntimeException e) {
            // closed either way, or broken: the pool discards it when it finds so
        }
        try {
            primary.release(c);
        }
        catch (SQLException | RuntimeException e) {
            // closed: the pool discards it
        }
    }

    /** Whether a read the primary must serve checks that the server behind the primary URL is writable. */
    boolean primarySuspect() {
        return primarySuspectSince.get() != 0;
    }

    /** The lexical rules of the database's SQL, from the replicas' URLs. */
    Lexing lexing() {
        return lexing;
    }

    /** The shared route "this replica, for this reason", without flags. */
    StatementRoute replicaRoute(ReplicaNode node, RouteReason reason) {
        return replicaRoutes[node.index()][reason.ordinal()];
    }

    /** The shared route "the primary, for this reason", without flags. */
    StatementRoute primaryRoute(RouteReason reason) {
        return primaryRoutes[reason.ordinal()];
    }

    /**
     * The one record of a statement served on {@code route}: statistics (those of its query {@code shape} too), the
     * debug log, the session's cache mode.
     */
    void served(SessionRouting session, StatementRoute route, QueryShapes.Shape shape, String sql) {
        RouteDecision decision = route.decision();
        session.record(decision, route.replicaIndex());
        statistics.record(decision, route.replicaIndex());
        shape.routed(decision.reason());
        if (log.isDebugEnabled()) {
            log.debug("[{}] {} <- {}", label, decision, sql);
        }
        if (route.node() != null) {
            session.servedByReplica();
        }
        else {
            session.servedByPrimary();
        }
    }

    /** The stale-read audit. */
    ReadAudit audit() {
        return audit;
    }

    /** The injected clock's nanosecond time, for execution times. */
    long nanoTime() {
        return replicas.clock().nanoTime();
    }

    /**
     * What a read does when no replica can serve it.
     *
     * @param poolTimeout the last timeout of a replica pool that could not lend a connection to this read, or null
     *                    when no pool was busy (the replicas are out of rotation, or none is configured)
     */
    StatementRoute noReplica(String sql, SQLException poolTimeout) throws SQLException {
        if (fallback == Fallback.FAIL) {
            String why = poolTimeout != null ? "no replica pool could lend a connection in time" : "no healthy replica";
            throw new SQLException("hibernate-rwsplit [" + label + "]: " + why + " for a read and setting '"
                    + RwSplitSettings.FALLBACK + "' is 'fail' (replicas: " + replicas.names() + ")", "08001", poolTimeout);
        }
        return primaryRoute(poolTimeout != null ? RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY
                : RouteReason.NO_HEALTHY_REPLICA);
    }

    /** Whether reads go to the primary when no replica can serve them ({@code fallback=primary}). */
    boolean fallsBackToPrimary() {
        return fallback != Fallback.FAIL;
    }

    /**
     * Borrows a connection from a replica; on failure takes the replica out of rotation and returns null. A pool
     * that could not lend a connection in time ({@link ConnectionErrors#isPoolTimeout}) while it holds connections
     * to the server ({@link PoolControl#holdsConnections}: all busy) says nothing about the server: the replica
     * stays in rotation and the pool's timeout is thrown, for the caller to try elsewhere. The caller makes it
     * read-only where the replica needs that ({@link #makeReadOnly}).
     */
    Connection borrow(ReplicaNode node) throws SQLException {
        Connection c = null;
        try {
            c = node.dataSource().getConnection();
            replicas.checkServerRun(node, c);   // a new physical connection: has the server restarted since?
            node.lent(c);
            return c;
        }
        catch (SQLException e) {
            giveUp(c, e);
            // busy: the pool holds connections to the server, all lent; one that holds none could not connect
            if (c == null && ConnectionErrors.isPoolTimeout(e) && (node.pool() == null || node.pool().holdsConnections())) {
                throw e;
            }
            replicas.markDown(node, e);
            return null;
        }
        catch (RuntimeException e) {
            giveUp(c, e);
            replicas.markDown(node, e);
            return null;
        }
    }

    /** Closes a connection borrowed for a read that cannot use it (it goes back to its pool), keeping {@code cause}. */
    private static void giveUp(Connection c, Exception cause) {
        if (c != null) {
            try {
                c.close();
            }
            catch (SQLException | RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
    }

    /** Closes {@code c}, lent by {@code node}'s pool, for good (an aborted connection): never lent again. */
    void discardReplica(ReplicaNode node, Connection c) {
        discardReplica(node, c, false);
    }

    /**
     * As {@link #discardReplica(ReplicaNode, Connection)}, for {@code c} made read-only here when {@code madeReadOnly}
     * ({@link #makeReadOnly}): a pool that cannot be told to discard it gets it back as it lent it, if it is still open.
     */
    void discardReplica(ReplicaNode node, Connection c, boolean madeReadOnly) {
        node.returned(c);
        io.rwsplit.internal.replica.PoolControl pool = node.pool();
        try {
            if (pool != null) {
                pool.evict(c);
            }
            else {
                try {
                    if (madeReadOnly && !c.isClosed()) {
                        c.setReadOnly(false);
                    }
                }
                finally {
                    c.close();
                }
            }
        }
        catch (SQLException | RuntimeException e) {
            // aborted: the pool discards it when it finds it closed
        }
    }

    /**
     * Makes {@code c}, just borrowed from {@code node}, read-only when the replica's data source is the application's
     * ({@link ReplicaNode#setReadOnly()}) and lent it writable; whether it did, for {@link #giveBack} to undo.
     */
    static boolean makeReadOnly(ReplicaNode node, Connection c) throws SQLException {
        if (!node.setReadOnly() || c.isReadOnly()) {
            return false;
        }
        c.setReadOnly(true);
        return true;
    }

    /**
     * Returns a replica connection to its pool as the pool lent it: writable again when {@code madeReadOnly}
     * ({@link #makeReadOnly}), untouched otherwise (a pool that lends read-only connections gets them back so, reset
     * or not).
     */
    void giveBack(ReplicaNode node, Connection c, boolean madeReadOnly) throws SQLException {
        node.returned(c);
        try {
            if (madeReadOnly && !c.isClosed()) {
                c.setReadOnly(false);
            }
        }
        finally {
            c.close();
        }
    }

    @Override
    public String toString() {
        return "Router[" + label + "]";
    }
}
