package io.rwsplit.route;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.health.ConnectionErrors;

/**
 * The connection Hibernate sees: a facade that opens no physical connection until a statement is
 * prepared (a {@code createStatement()} statement: executed). Each statement is classified, the
 * {@link RoutePolicy} decides, the {@link TransactionTracker} is told the decision's effects, a gated read
 * passes the {@link ConsistencyGate}, and the statement is prepared on the connection
 * {@link PhysicalConnections} opens, then wrapped so that it never leads around routing. Transaction
 * boundaries ({@code setAutoCommit}, {@code commit}, {@code rollback}) are applied to every physical
 * connection the transaction touched, and reported to the tracker. See docs/routing-core.md.
 * <p>
 * Used by one thread at a time, like any JDBC connection handed to a Hibernate session.
 */
public final class RoutingConnection implements Connection {

    private static final PhysicalConnections.Action AUTOCOMMIT_ON = c -> c.setAutoCommit(true);
    private static final PhysicalConnections.Action AUTOCOMMIT_OFF = c -> c.setAutoCommit(false);

    private final Router router;
    private final SessionRouting session;
    private final TransactionTracker tx;
    private final PhysicalConnections physical;
    private final ConsistencyGate gate;
    private final Failover failover;

    private boolean closed;

    RoutingConnection(Router router, SessionRouting session, boolean readOnlySession) {
        this.router = router;
        this.session = session;
        this.gate = new ConsistencyGate(router, session);
        this.tx = new TransactionTracker(session, router.transactionStatus(), readOnlySession, gate);
        this.physical = new PhysicalConnections(router, tx);
        gate.connections(physical);
        this.failover = new Failover(this, router, tx, physical, gate);
    }

    /** What happens after an execution of one of this connection's statements failed. */
    Failover failover() {
        return failover;
    }

    /** The session this connection routes for. */
    public SessionRouting session() {
        return session;
    }

    public Router router() {
        return router;
    }

    // ------------------------------------------------------------------ routing

    /**
     * Decides where {@code sql} goes, opens that connection if needed (its physical connection: {@link #connection}),
     * records the decision once, and returns it.
     */
    StatementRoute route(String sql) throws SQLException {
        checkOpen();
        tx.statementStarting();
        physical.statementStarting();
        ClassificationCache.Entry classified;
        try {
            classified = router.classifications().classify(sql);
        }
        catch (IllegalArgumentException e) {
            throw new SQLException("hibernate-rwsplit: " + e.getMessage(), "42000", e);
        }
        SessionState.Effect effect = classified.effect();
        SqlKind kind = classified.kind();
        TransactionTracker.Kind txKind = tx.kind();
        RoutePolicy.Route policy = RoutePolicy.decide(kind, classified.hint(), txKind, tx.readOnlyConnection(),
                session.intent(), session.flushing(), physical.pinnedToPrimary(), effect == SessionState.Effect.REPLAYED);
        // an autocommit read may wait for a failover of the primary; a gated one may then be served by a replica
        boolean autocommitRead = !kind.primaryOnly() && txKind == TransactionTracker.Kind.NONE && !policy.refused()
                && (policy.gated() || policy.reason() == RouteReason.PRIMARY_HINT);
        RouteReason reason = decide(policy, kind, txKind, sql);
        StatementRoute route = connect(reason, sql, autocommitRead, autocommitRead && policy.gated());
        if (effect == SessionState.Effect.PINS) {
            physical.pinToPrimary(); // it runs on the primary (never a plain read): the rest stays with its state
        }
        else if (effect == SessionState.Effect.REPLAYED) {
            physical.sessionCommand(sql); // it runs on the primary; replica connections replay it
        }
        return route;
    }

    /** The physical connection {@code route} runs on (opened by {@link #route}). */
    Connection connection(StatementRoute route) throws SQLException {
        return physical.connection(route);
    }

    /**
     * Applies the {@link RoutePolicy}'s decision: refuses a write in a read-only context, tells the
     * transaction about writes, and passes a gated read through the session's consistency level (once per
     * read-only transaction, at its first read).
     */
    private RouteReason decide(RoutePolicy.Route route, SqlKind kind, TransactionTracker.Kind txKind, String sql)
            throws SQLException {
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
        if (txKind != TransactionTracker.Kind.NONE) {
            if (tx.needsConsistencyCheck()) {
                RouteReason reason = gate.read(RouteReason.READ_ONLY_TRANSACTION, true);
                tx.consistencyChecked(reason.target() == io.rwsplit.Target.PRIMARY ? reason : null);
                return reason;
            }
            RouteReason primaryReason = tx.primaryReason();
            return primaryReason != null ? primaryReason : RouteReason.READ_ONLY_TRANSACTION;
        }
        return gate.read(route.reason(), false);
    }

    /** Opens the connection {@code reason} leads to (or the one a fallback or a failover leads to) and records it. */
    private StatementRoute connect(RouteReason reason, String sql, boolean autocommitRead, boolean gated)
            throws SQLException {
        if (reason.target() == io.rwsplit.Target.PRIMARY) {
            return primary(router.primaryRoute(reason).with(autocommitRead, gated, false), sql);
        }
        Connection c = physical.replica(tx.inTransaction());
        SQLException poolTimeout = physical.poolTimeout();
        if (c == null) {
            // a replica that could not replay the session commands pins the connection: the primary, with its settings
            StatementRoute fallback = physical.pinnedToPrimary() ? router.primaryRoute(RouteReason.SESSION_STATE)
                    : router.noReplica(sql, poolTimeout);
            return primary(fallback.with(autocommitRead, gated, false), sql);
        }
        ReplicaNode node = physical.replicaNode();
        boolean anyReplica = reason == RouteReason.REPLICA_READ || reason == RouteReason.REPLICA_HINT;
        // a read that any replica may serve says so when a busy pool sent it to this one; consistency reasons stay
        boolean movedByBusyPool = poolTimeout != null && (anyReplica || reason == RouteReason.READ_ONLY_TRANSACTION);
        StatementRoute route = node.route(movedByBusyPool ? RouteReason.REPLICA_POOL_EXHAUSTED_REPLICA : reason)
                .with(autocommitRead, gated, anyReplica);
        served(route, sql);
        return route;
    }

    /**
     * Records {@code route} (to the primary) and opens the primary connection; an autocommit read that cannot get one
     * waits for a failover ({@link Failover#awaitFailover}), as does one while a failover may be under way
     * ({@link Router#primarySuspect}): it is served only by a server that is writable, never by a replica a
     * multi-host primary URL led to before its promotion. Returns where it is served.
     */
    private StatementRoute primary(StatementRoute route, String sql) throws SQLException {
        served(route, sql);
        if (route.autocommitRead() && router.primarySuspect()) {
            return failover.awaitFailover(route, sql, new java.sql.SQLTransientConnectionException(
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
            return failover.awaitFailover(route, sql, e, failover.deadline());
        }
    }

    /** The one record of a statement served on {@code route}: statistics, the debug log, the session's cache mode. */
    void served(StatementRoute route, String sql) {
        router.record(session, route.decision(), route.replicaIndex(), sql);
        if (route.node() != null) {
            session.servedByReplica();
        }
        else {
            session.servedByPrimary();
        }
    }

    /** The connection of the current transaction for work that carries no SQL (savepoints, metadata, options). */
    private Connection current() throws SQLException {
        checkOpen();
        tx.follow();
        TransactionTracker.Kind txKind = tx.kind();
        if ((txKind == TransactionTracker.Kind.READ_ONLY_STRICT || txKind == TransactionTracker.Kind.READ_ONLY_PREFERRED)
                && physical.openReplica() != null && !physical.pinnedToPrimary()) {
            return physical.openReplica();
        }
        return physical.primary();
    }

    /** {@link #current()}, for a statement asked for an option before it ran. */
    Connection connectionWithoutSql() throws SQLException {
        return current();
    }

    /** The replica behind {@code c} when {@code c} is this connection's replica connection, else null. */
    ReplicaNode replicaNodeOf(Connection c) {
        return physical.replicaNodeOf(c);
    }

    /** Whether a read that failed on its replica may run again elsewhere: outside a transaction only. */
    boolean retriesReads() {
        return !tx.inTransaction();
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("hibernate-rwsplit: connection is closed", "08003");
        }
    }

    private static String abbreviate(String sql) {
        return sql == null || sql.length() <= 200 ? sql : sql.substring(0, 200) + "...";
    }

    // ------------------------------------------------------------------ statements

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepare(sql, StatementShape.PLAIN);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return prepare(sql, StatementShape.of(resultSetType, resultSetConcurrency, -1));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        return prepare(sql, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepare(sql, StatementShape.keys(autoGeneratedKeys));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepare(sql, StatementShape.columns(columnIndexes));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepare(sql, StatementShape.columns(columnNames));
    }

    /** Every {@code prepareStatement} overload: routed by its SQL, wrapped so that it never leaks the physical connection. */
    private PreparedStatement prepare(String sql, StatementShape shape) throws SQLException {
        StatementRoute route = route(sql);
        PreparedStatement ps = shape.prepare(physical.connection(route), sql);
        if (route.node() != null) {
            return new ReplicaStatement(this, route, ps, sql, retriesReads(), shape);
        }
        // an autocommit read on the primary records its parameters: it may run again after a failover
        return route.autocommitRead() ? new ReplicaStatement(this, route, ps, sql, true, shape)
                : new PrimaryStatement(this, ps);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return call(sql, StatementShape.PLAIN);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return call(sql, StatementShape.of(resultSetType, resultSetConcurrency, -1));
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        return call(sql, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
    }

    /** Every {@code prepareCall} overload: routed by its SQL, and failing over as a prepared statement does. */
    private CallableStatement call(String sql, StatementShape shape) throws SQLException {
        StatementRoute route = route(sql);
        CallableStatement call = shape.prepareCall(physical.connection(route), sql);
        boolean retryable = route.node() != null ? retriesReads() : route.autocommitRead();
        return new RoutedCallableStatement(this, route, call, sql, retryable, shape);
    }

    /** No SQL yet: each execution is routed by its own SQL. */
    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return new RoutedStatement(this, StatementShape.PLAIN);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkOpen();
        return new RoutedStatement(this, StatementShape.of(resultSetType, resultSetConcurrency, -1));
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkOpen();
        return new RoutedStatement(this, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        return current().nativeSQL(sql);
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (autoCommit == tx.autoCommit()) {
            return;
        }
        if (!autoCommit) {
            tx.autoCommitSwitchingOff();
        }
        // the primary first: if switching autocommit on (a commit) fails there, the replica's read-only work is irrelevant
        SQLException failure = physical.applyToBoth(autoCommit ? AUTOCOMMIT_ON : AUTOCOMMIT_OFF);
        if (autoCommit) {
            physical.transactionEnded(false); // switching autocommit on commits
        }
        tx.autoCommitSwitched(autoCommit, failure == null);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return tx.autoCommit();
    }

    /**
     * Commits on the primary, then on the replica; both are always attempted and the transaction ends
     * either way (the first failure is thrown, the next chained to it). A transaction that wrote is committed
     * together with the reading of its position where the server allows ({@link ConsistencyGate#commitRecordingWrite}).
     */
    @Override
    public void commit() throws SQLException {
        checkOpen();
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
        failure = recorded || failure != null ? physical.applyToReplica(Connection::commit, failure)
                : physical.applyToBoth(Connection::commit);
        physical.transactionEnded(false);
        tx.committed(recorded);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        if (tx.autoCommit()) {
            return;
        }
        SQLException failure = physical.applyToBoth(Connection::rollback);
        physical.transactionEnded(true);
        tx.rolledBack();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return current().setSavepoint();
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        return current().setSavepoint(name);
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        current().rollback(savepoint);
        physical.rolledBackToSavepoint();
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        current().releaseSavepoint(savepoint);
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        tx.readOnly(readOnly);
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return tx.readOnly();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        physical.isolation(level);
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        if (physical.isolation() == -1) {
            physical.rememberIsolation(current().getTransactionIsolation());
        }
        return physical.isolation();
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        tx.closing();
        closed = true;
        session.servedByPrimary();
        SQLException failure = physical.releaseAll();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (closed) {
            return false;
        }
        return physical.isValid(timeout);
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        closed = true;
        physical.abort(executor);
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return physical.warnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        physical.forEachOpen(Connection::clearWarnings);
    }

    // ------------------------------------------------------------------ state kept and replayed

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        physical.catalog(catalog);
    }

    @Override
    public String getCatalog() throws SQLException {
        return physical.catalog() != null ? physical.catalog() : current().getCatalog();
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        physical.schema(schema);
    }

    @Override
    public String getSchema() throws SQLException {
        return physical.schema() != null ? physical.schema() : current().getSchema();
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        physical.holdability(holdability);
    }

    @Override
    public int getHoldability() throws SQLException {
        return physical.holdability() != -1 ? physical.holdability() : current().getHoldability();
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        current().setNetworkTimeout(executor, milliseconds);
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        return current().getNetworkTimeout();
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        try {
            current().setClientInfo(name, value);
        }
        catch (SQLClientInfoException e) {
            throw e;
        }
        catch (SQLException e) {
            throw new SQLClientInfoException(e.getMessage(), Map.of(), e);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        try {
            current().setClientInfo(properties);
        }
        catch (SQLClientInfoException e) {
            throw e;
        }
        catch (SQLException e) {
            throw new SQLClientInfoException(e.getMessage(), Map.of(), e);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        return current().getClientInfo(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        return current().getClientInfo();
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        return current().getTypeMap();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        current().setTypeMap(map);
    }

    // ------------------------------------------------------------------ factories (data goes to the primary)

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return physical.primary().getMetaData();
    }

    @Override
    public Clob createClob() throws SQLException {
        return current().createClob();
    }

    @Override
    public Blob createBlob() throws SQLException {
        return current().createBlob();
    }

    @Override
    public NClob createNClob() throws SQLException {
        return current().createNClob();
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        return current().createSQLXML();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        return current().createArrayOf(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        return current().createStruct(typeName, attributes);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return current().unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || current().isWrapperFor(iface);
    }

    @Override
    public String toString() {
        return "RoutingConnection[" + router.label() + ", tx=" + tx + ", " + physical + "]";
    }
}
