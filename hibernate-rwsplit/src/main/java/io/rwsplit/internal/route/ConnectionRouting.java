package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.rwsplit.RouteReason;
import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.stats.QueryShapes;

/**
 * What one logical connection does, behind its facade ({@link RoutingConnection}): each statement is classified,
 * the {@link RoutePolicy} decides, the {@link TransactionTracker} is told the decision's effects, a gated read
 * passes the {@link ConsistencyGate}, and the connection {@link PhysicalConnections} opens serves it, recorded once
 * as a {@link StatementRoute}; transaction boundaries go to every physical connection the transaction touched. It
 * builds and owns the parts: the tracker, the gate, the physical connections, the {@link Failover}, the
 * {@link StatementDoors} that wrap its statements and the {@link TransactionPlace} where work without SQL runs.
 * <p>
 * Used by one thread at a time, like the logical connection.
 */
final class ConnectionRouting {

    private static final PhysicalConnections.Action AUTOCOMMIT_ON = c -> c.setAutoCommit(true);
    private static final PhysicalConnections.Action AUTOCOMMIT_OFF = c -> c.setAutoCommit(false);

    /** Whom it serves now: the facade of the session (a new one per session) and the session; null while it waits. */
    private final Served served;
    private final Router router;
    private final TransactionTracker tx;
    private final PhysicalConnections physical;
    private final ReplicaConnection replica;
    private final ConsistencyGate gate;
    private final Failover failover;
    private final ConnectionSettings settings = new ConnectionSettings();
    private final ConnectionSession connectionSession;
    private final StatementDoors doors;
    private final InFlightCounts inFlight;
    private final TransactionPlace place;
    /**
     * The unit's last committed write when the last gated read was routed (the first read of a read-only transaction
     * for the rest of it), for the stale-read audit: taken before the gate may wait, so that writes other sessions
     * commit while it waits are not counted against a read that was routed right; null when the audit is off.
     */
    private io.rwsplit.position.ConsistencyToken unitAtRoute;
    /** {@link #unitChanges()} when the last statement was routed ({@link #unitChangesAtRoute()}). */
    private long unitChangesAtRoute;

    ConnectionRouting(RoutingConnection owner, Router router, SessionRouting session, boolean readOnlySession) {
        this.served = new Served(owner, session);
        this.router = router;
        this.gate = new ConsistencyGate(router, served);
        this.tx = new TransactionTracker(served, router.transactionStatus(), readOnlySession, gate);
        this.connectionSession = new ConnectionSession(router);
        this.physical = new PhysicalConnections(router, tx, settings, connectionSession, served);
        this.replica = physical.replica();
        gate.connections(physical);
        this.failover = new Failover(served, router, tx, physical, gate, connectionSession);
        this.doors = new StatementDoors(this, served, gate, physical, settings);
        this.inFlight = new InFlightCounts(router.replicas());
        this.place = new TransactionPlace(served, tx, physical, gate, connectionSession);
    }

    /**
     * Where the current transaction's work that carries no SQL runs: metadata and options, savepoints, an unwrapped
     * driver connection, arrays and structs.
     */
    TransactionPlace place() {
        return place;
    }

    /** Its statement doors ({@code createStatement}, {@code prepareStatement}, {@code prepareCall}). */
    StatementDoors doors() {
        return doors;
    }

    Router router() {
        return router;
    }

    TransactionTracker tx() {
        return tx;
    }

    PhysicalConnections physical() {
        return physical;
    }

    Failover failover() {
        return failover;
    }

    /** The replicas' in-flight counts its statements hold (when the balancer reads them), given back at its close. */
    InFlightCounts inFlight() {
        return inFlight;
    }

    /** Whether the logical connection is pinned to the primary, and the session commands its replicas replay. */
    ConnectionSession connectionSession() {
        return connectionSession;
    }

    /** The settings made on the logical connection. */
    ConnectionSettings settings() {
        return settings;
    }

    // ------------------------------------------------------------------ statements

    /**
     * Decides where {@code sql} goes, opens that connection if needed (its physical connection: {@link #connection}),
     * records the decision once, and returns it.
     */
    StatementRoute route(String sql) throws SQLException {
        return route(classify(sql));
    }

    /** How {@code sql} is classified (from the shared cache); a malformed hint is refused. */
    ClassificationCache.Entry classify(String sql) throws SQLException {
        try {
            return router.classifications().classify(sql);
        }
        catch (IllegalArgumentException e) {
            throw new SQLException("hibernate-rwsplit: " + e.getMessage(), "42000", e);
        }
    }

    /** {@link #route(String)} of a statement already classified: its caller keeps the entry (its query shape). */
    StatementRoute route(ClassificationCache.Entry classified) throws SQLException {
        return route(classified, false);
    }

    /**
     * As {@link #route(ClassificationCache.Entry)}; {@code updatable}: the statement's result sets are updatable
     * ({@code CONCUR_UPDATABLE}), so whatever its SQL it is routed as a write (the primary, recorded, refused where a
     * write is), since {@code updateRow}, {@code insertRow} and {@code deleteRow} write through it.
     */
    StatementRoute route(ClassificationCache.Entry classified, boolean updatable) throws SQLException {
        String sql = classified.sql();
        served.owner.checkOpen();
        tx.statementStarting();
        unitChangesAtRoute = unitChanges();   // after this connection's last write is recorded, before the gate
        replica.statementStarting();
        SessionState.Effect effect = classified.effect();
        SqlKind kind = updatable ? SqlKind.WRITE : classified.kind();
        TransactionTracker.Kind txKind = tx.kind();
        if (txKind == TransactionTracker.Kind.NONE) {
            connectionSession.checkLocks(physical.openPrimary());   // after an unlock: are locks still held there?
        }
        RoutePolicy.Route policy = RoutePolicy.decide(kind, classified.hint(), txKind, tx.readOnlyConnection(),
                served.session.intent(), served.session.flushing(), connectionSession.pinned(), effect == SessionState.Effect.REPLAYED);
        // an autocommit read may wait for a failover of the primary; a gated one may then be served by a replica
        boolean autocommitRead = !kind.primaryOnly() && txKind == TransactionTracker.Kind.NONE && !policy.refused()
                && (policy.gated() || policy.reason() == RouteReason.PRIMARY_HINT);
        io.rwsplit.internal.config.ShapeRule rule = classified.rule();
        // before the gate: a monitor's look at a new primary that lands after the gate's answer is not in it
        boolean suspectAtGate = autocommitRead && router.primarySuspect();
        RouteReason reason = decide(policy, kind, txKind, sql, rule);
        // a read a rule sends to the primary is not gated: a failover never moves it to a replica
        boolean gated = autocommitRead && policy.gated() && (rule == null || !rule.toPrimary());
        StatementRoute route;
        if ((effect == SessionState.Effect.SAVEPOINT || effect == SessionState.Effect.ROLLS_BACK_TO_SAVEPOINT)
                && txKind != TransactionTracker.Kind.NONE && place.savepointOnReplica()) {
            // the open replica connection, where the transaction reads (or its savepoints are, even once pinned)
            route = router.replicaRoute(replica.node(), RouteReason.READ_ONLY_TRANSACTION);
            router.served(served.session, route, classified.shape(), sql);
        }
        else {
            route = connect(reason, classified.shape(), sql, autocommitRead, gated, suspectAtGate);
        }
        if (policy.recordsWrite()) {
            route = route.writing();
        }
        if (effect.pins()) {
            connectionSession.pin(); // it runs on the primary (never a plain read): the rest stays with its state
            if (effect == SessionState.Effect.MANUAL_COMMITS) {
                tx.sqlManualCommits();
            }
            else if (effect == SessionState.Effect.AUTO_COMMITS) {
                tx.sqlAutoCommits();
            }
            else if (effect == SessionState.Effect.SEVERAL) {
                tx.writesUntracked();
            }
        }
        else if (effect == SessionState.Effect.REPLAYED) {
            connectionSession.command(sql, !tx.autoCommit(), physical.primary()); // it ran there; replicas replay it
        }
        else if (effect == SessionState.Effect.ROLLS_BACK_TO_SAVEPOINT) {
            connectionSession.rolledBackToSavepoint();
        }
        else if (effect == SessionState.Effect.BEGINS) {
            tx.sqlBegan();
        }
        else if (effect == SessionState.Effect.COMMITS || effect == SessionState.Effect.ROLLS_BACK) {
            tx.sqlEnded(effect == SessionState.Effect.COMMITS);
            connectionSession.mayHaveUnlocked();
        }
        else if (effect == SessionState.Effect.COMMITS_AND_BEGINS || effect == SessionState.Effect.ROLLS_BACK_AND_BEGINS) {
            tx.sqlChained(effect == SessionState.Effect.COMMITS_AND_BEGINS);   // the next one is open at once
        }
        else if (effect != SessionState.Effect.NONE) {
            locks(effect);
        }
        return route;
    }

    /**
     * A statement routed earlier that may write executes (again): it is a write now ({@code writes}), whatever ran
     * since it was prepared (an autocommit write is recorded before the next statement, a transaction's at its
     * commit). One that is a write by kind ({@code writeLike}: a write, a locking read, DDL, a call, a statement with
     * updatable results) meets the read-only context it executes in, begun since it was prepared, as a routed one
     * would: refused in a read-only connection or transaction, and moving a read-only-by-preference transaction to
     * the primary.
     */
    void writeExecuting(boolean writes, boolean writeLike) throws SQLException {
        served.owner.checkOpen();
        if (writeLike) {
            TransactionTracker.Kind txKind = tx.kind();
            if (txKind == TransactionTracker.Kind.READ_ONLY_STRICT
                    || txKind == TransactionTracker.Kind.NONE && tx.readOnlyConnection()) {
                throw new SQLException("hibernate-rwsplit: a write prepared earlier executes in a read-only "
                        + (txKind == TransactionTracker.Kind.NONE ? "connection" : "transaction")
                        + " (Connection#setReadOnly(true) or a read-only session) and is refused; it would never be"
                        + " sent to a replica", "25006");
            }
            if (txKind == TransactionTracker.Kind.READ_ONLY_PREFERRED) {
                tx.writeInPreferredReadOnly();
            }
        }
        if (writes) {
            tx.wrote();
        }
    }

    /**
     * How many times what a read routed earlier on this connection depends on changed (a write routed or executed, a
     * transaction begun or ended): a prepared read routed when it was lower is routed again before it executes.
     */
    long changes() {
        return tx.changes();
    }

    /**
     * How many times what the unit's reads must see changed in this JVM ({@link
     * io.rwsplit.internal.consistency.CausalReads#unitChanges}): a prepared read executed again after it moved since
     * the statement was routed is routed again. One volatile read.
     */
    long unitChanges() {
        io.rwsplit.internal.consistency.CausalReads causal = router.causal();
        return causal == null ? 0 : causal.unitChanges();
    }

    /**
     * {@link #unitChanges()} when the last statement was routed: after its connection's last write was recorded, before
     * the gate.
     */
    long unitChangesAtRoute() {
        return unitChangesAtRoute;
    }

    /** The physical connection {@code route} runs on (opened by {@link #route}). */
    Connection connection(StatementRoute route) throws SQLException {
        return physical.connection(route);
    }

    /**
     * Applies the {@link RoutePolicy}'s decision: refuses a write in a read-only context, tells the
     * transaction about writes, and passes a gated read through the session's consistency level (once per
     * read-only transaction, at its first read), or through its rule by query shape (the primary, the rule's level, or
     * the replicas of the rule's tier).
     */
    private RouteReason decide(RoutePolicy.Route route, SqlKind kind, TransactionTracker.Kind txKind, String sql,
                               io.rwsplit.internal.config.ShapeRule rule) throws SQLException {
        if (route.refused()) {
            throw new SQLException("hibernate-rwsplit: " + kind + " statement refused in a read-only "
                    + (txKind == TransactionTracker.Kind.NONE ? "connection" : "transaction")
                    + " (Connection#setReadOnly(true) or a read-only session); it would never be sent to a replica: "
                    + abbreviate(sql), "25006");
        }
        if (route.promotes()) {
            tx.writeInPreferredReadOnly();
        }
        if (route.recordsWrite()) {
            tx.wrote();
        }
        if (!route.gated()) {
            return route.reason();
        }
        if (router.audit().on() && router.causal() != null
                && (txKind == TransactionTracker.Kind.NONE || tx.needsConsistencyCheck())) {
            unitAtRoute = router.causal().unitCommitted();   // before the gate: what it asks for, or older
        }
        // a rule by query shape moves only what could go to a replica: a gated read
        if (rule != null && rule.toPrimary()) {
            return RouteReason.SHAPE_RULE_PRIMARY;
        }
        if (rule != null && rule.tier() != 0) {
            replica.tier(rule.tier());   // for this statement, if it opens the replica connection
        }
        io.rwsplit.Consistency level = rule == null ? null : rule.consistency();
        if (txKind != TransactionTracker.Kind.NONE) {
            if (tx.needsConsistencyCheck()) {
                RouteReason reason = gate.read(RouteReason.READ_ONLY_TRANSACTION, true, level);
                tx.consistencyChecked(reason.target() == io.rwsplit.Target.PRIMARY ? reason : null);
                return reason;
            }
            RouteReason primaryReason = tx.primaryReason();
            return primaryReason != null ? primaryReason : RouteReason.READ_ONLY_TRANSACTION;
        }
        return gate.read(route.reason(), false, level);
    }

    /** Opens the connection {@code reason} leads to (or the one a fallback or a failover leads to) and records it. */
    private StatementRoute connect(RouteReason reason, QueryShapes.Shape shape, String sql, boolean autocommitRead,
                                   boolean gated, boolean suspectAtGate) throws SQLException {
        if (reason.target() == io.rwsplit.Target.PRIMARY) {
            return primary(router.primaryRoute(reason).with(autocommitRead, gated, false), shape, sql, suspectAtGate);
        }
        Connection c = replica.serve(tx.inTransaction());
        SQLException poolTimeout = replica.poolTimeout();
        if (c == null) {
            // a replica that could not replay the session commands pins the connection: the primary, with its settings
            StatementRoute fallback = connectionSession.pinned() ? router.primaryRoute(RouteReason.SESSION_STATE)
                    : router.noReplica(sql, poolTimeout);
            return primary(fallback.with(autocommitRead, gated, false), shape, sql, suspectAtGate);
        }
        ReplicaNode node = replica.node();
        boolean anyReplica = reason == RouteReason.REPLICA_READ || reason == RouteReason.REPLICA_HINT;
        // a read that any replica may serve says so when a busy pool sent it to this one; consistency reasons stay
        boolean movedByBusyPool = poolTimeout != null && (anyReplica || reason == RouteReason.READ_ONLY_TRANSACTION);
        StatementRoute route = router.replicaRoute(node, movedByBusyPool ? RouteReason.REPLICA_POOL_EXHAUSTED_REPLICA : reason)
                .with(autocommitRead, gated, anyReplica);
        if (!gate.checkPending()) {
            router.served(served.session, route, shape, sql);   // a checked read is recorded where its check leads it
        }
        return route;
    }

    /** What a lock statement (it runs on the primary) does to where the rest of the logical connection goes. */
    private void locks(SessionState.Effect effect) {
        switch (effect) {
            case LOCKS_TABLES -> connectionSession.lockedTables(router.lexing() == Lexing.POSTGRESQL);
            case UNLOCKS_TABLES -> connectionSession.unlockedTables();
            case LOCKS_ADVISORY -> connectionSession.lockedAdvisory();
            case UNLOCKS_ADVISORY -> connectionSession.mayHaveUnlocked();
            default -> { }
        }
    }

    /**
     * Records {@code route} (to the primary) and opens the primary connection; an autocommit read that cannot get one
     * waits for a failover ({@link Failover#awaitFailover}), as does one while a failover may be under way
     * ({@link Router#primarySuspect}): it is served only by a server that is writable, never by a replica a
     * multi-host primary URL led to before its promotion. Returns where it is served.
     */
    private StatementRoute primary(StatementRoute route, QueryShapes.Shape shape, String sql, boolean suspectAtGate)
            throws SQLException {
        router.served(served.session, route, shape, sql);
        if (route.autocommitRead() && (suspectAtGate || router.primarySuspect())) {
            return failover.awaitFailover(route, shape, sql, new java.sql.SQLTransientConnectionException(
                    "hibernate-rwsplit [" + router.label()
                    + "]: no writable server answers the primary URL yet (a failover may be under way)", "08001"),
                    failover.deadline());
        }
        try {
            physical.primary();
            return route;
        }
        catch (SQLException e) {
            if (!route.autocommitRead() || !ConnectionErrors.isConnectionError(e)) {
                throw e;
            }
            return failover.awaitFailover(route, shape, sql, e, failover.deadline());
        }
    }

    /** The facade: what statements hand back as their connection. */
    RoutingConnection owner() {
        return served.owner;
    }

    /** The session served now, or null while the parts wait. */
    SessionRouting session() {
        return served.session;
    }

    private static String abbreviate(String sql) {
        return sql == null || sql.length() <= 200 ? sql : sql.substring(0, 200) + "...";
    }

    // ------------------------------------------------------------------ statement wrappers

    /** The injected clock's nanosecond time, for execution times. */
    long nanoTime() {
        return router.nanoTime();
    }

    /**
     * What a replica read beginning now had to see, when the stale-read audit samples it ({@link ReadAudit#sampled}):
     * the unit's last committed write when it was routed ({@link #unitAtRoute}) and the session's requirement; null
     * (nothing allocated) when it is not sampled.
     */
    ReadAudit.Sample auditSample() {
        ReadAudit audit = router.audit();
        if (!audit.sampled()) {
            return null;
        }
        return new ReadAudit.Sample(audit, unitAtRoute, served.session.lastRequirement());
    }

    /** The consistency of this connection's reads (for a read checked in its own round trip). */
    io.rwsplit.internal.consistency.CausalReads causal() {
        return router.causal();
    }

    /**
     * A read checked in its own round trip on {@code route}'s replica found it without {@code need}, or cannot be run
     * checked: outside a transaction it waits for its replica as an unchecked read does and stays there; else (a wait
     * that timed out, or in a transaction begun since it was prepared, where a wait would end the replica's
     * transaction) it goes to the primary, as any read does there (a failover under way is waited for). The route it
     * runs on now, recorded unless {@code recorded} already. {@code checked}: the check ran and found the replica
     * without {@code need} (it was the first question to the replica).
     */
    StatementRoute settleCheck(StatementRoute route, io.rwsplit.position.ConsistencyToken need, QueryShapes.Shape shape,
                               String sql, boolean recorded, boolean checked) throws SQLException {
        boolean suspectAtGate = route.autocommitRead() && router.primarySuspect();
        if (gate.settleCheck(route.node(), need, !tx.inTransaction(), checked)) {
            if (!recorded) {
                router.served(served.session, route, shape, sql);
            }
            return route;
        }
        return primary(router.primaryRoute(gate.timedOut()).with(route.autocommitRead(), route.gated(), false), shape, sql,
                suspectAtGate);
    }

    /** Records {@code route}: a checked read's, once its check passed. */
    void served(StatementRoute route, QueryShapes.Shape shape, String sql) {
        router.served(served.session, route, shape, sql);
    }

    // ------------------------------------------------------------------ transactions

    void setAutoCommit(boolean autoCommit) throws SQLException {
        if (autoCommit == tx.autoCommit()) {
            return;
        }
        if (!autoCommit) {
            tx.autoCommitSwitchingOff();
        }
        // the primary first: if switching autocommit on (a commit) fails there, the replica's read-only work is irrelevant
        SQLException failure = physical.endOnBoth(autoCommit ? AUTOCOMMIT_ON : AUTOCOMMIT_OFF,
                autoCommit ? "setAutoCommit(true)" : "setAutoCommit(false)");
        if (autoCommit) {
            connectionSession.transactionEnded(false); // switching autocommit on commits
        }
        tx.autoCommitSwitched(autoCommit);
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Commits on the primary, then on the replica; both are always attempted and the transaction ends
     * either way. The primary's failure is thrown; the replica's (it held only reads) discards its connection and is
     * logged, never thrown: once the primary has committed, the commit succeeded. A transaction that wrote is committed
     * together with the reading of its position where the server allows ({@link ConsistencyGate#commitRecordingWrite}).
     */
    void commit() throws SQLException {
        if (tx.autoCommit()) {
            return;
        }
        boolean recorded = false;
        SQLException failure = null;
        Connection primary = physical.openPrimary();
        if (primary != null && tx.committingAWrite()) {
            try {
                recorded = gate.commitRecordingWrite(primary);
            }
            catch (SQLException e) {
                failure = e;   // not recorded: the tracker records the write as after any failed commit
            }
        }
        if (recorded || failure != null) {
            physical.endOnReplica(Connection::commit, "commit");
        }
        else {
            failure = physical.endOnBoth(Connection::commit, "commit");
        }
        connectionSession.transactionEnded(false);
        tx.committed(recorded);
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The logical connection closes: the replicas' in-flight counts its statements left open hold are given back, its
     * transaction ends, and every physical connection goes back to its pool. Returns whether it may serve another
     * session: every physical connection went back, and nothing will use it for this one later (an external
     * transaction's commit recording its writes); it is then cleared of this session.
     */
    boolean close() throws SQLException {
        inFlight.releaseAll();   // first: whatever fails below, the statements left open run no more
        tx.closing();
        served.session.servedByPrimary();
        SQLException failure = physical.releaseAll();
        if (failure != null) {
            throw failure;
        }
        if (!tx.reusable() || !physical.noneHeld()) {
            return false;
        }
        clearSession();   // nothing of this session stays reachable from the idle connection
        return true;
    }

    /** Every part back to a new one's state, serving no one: the parts wait for the next session ({@link #resume}). */
    private void clearSession() {
        served.owner = null;
        served.session = null;
        unitAtRoute = null;
        unitChangesAtRoute = 0;
        gate.serve();
        tx.serve(false);
        connectionSession.clear();
        physical.clear();
        settings.clear();
    }

    /**
     * Serves {@code session} through the new facade {@code owner}: parts that waited, which their last {@link #close}
     * cleared ({@link #clearSession}; {@link Router#open} takes only those), need nothing else set again.
     */
    void resume(RoutingConnection owner, SessionRouting session, boolean readOnlySession) {
        served.owner = owner;
        served.session = session;
        tx.readOnlySession(readOnlySession);
    }

    void rollback() throws SQLException {
        if (tx.autoCommit()) {
            return;
        }
        SQLException failure = physical.endOnBoth(Connection::rollback, "rollback");
        connectionSession.transactionEnded(true);
        tx.rolledBack();
        if (failure != null) {
            throw failure;
        }
    }
}
