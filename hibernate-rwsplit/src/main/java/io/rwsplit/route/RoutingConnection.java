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

import io.rwsplit.Consistency;
import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.consistency.CausalReads;
import io.rwsplit.consistency.ConsistencyToken;
import io.rwsplit.consistency.GtidPosition;
import io.rwsplit.consistency.SessionConsistency;

/**
 * The connection Hibernate sees. It opens no physical connection until a statement is prepared; then
 * it classifies the SQL, decides (see {@link #decide}) and prepares the statement on the primary or on a
 * replica. Within one logical connection the primary connection and the replica connection are each
 * opened at most once and reused. Transaction boundaries ({@code setAutoCommit}, {@code commit},
 * {@code rollback}) are applied to every physical connection the transaction touched.
 * <p>
 * Used by one thread at a time, like any JDBC connection handed to a Hibernate session.
 */
public final class RoutingConnection implements Connection {

    private final Router router;
    private final SessionRouting session;
    private final TransactionTracker tx;

    private Connection primary;
    private Connection replica;
    private ReplicaNode replicaNode;
    /** Why the replica connection was last chosen (decides where a failed read may be retried). */
    private RouteReason replicaReason;

    private boolean closed;
    private int isolation = -1;
    private String catalog;
    private String schema;
    private int holdability = -1;

    RoutingConnection(Router router, SessionRouting session, boolean readOnlySession) {
        this.router = router;
        this.session = session;
        this.tx = new TransactionTracker(session, router.transactionStatus(), readOnlySession, this::recordWrite);
    }

    /** The session this connection routes for. */
    public SessionRouting session() {
        return session;
    }

    public Router router() {
        return router;
    }

    // ------------------------------------------------------------------ routing

    /** Decides where {@code sql} goes, opens that connection if needed, records the decision. */
    Connection route(String sql) throws SQLException {
        checkOpen();
        tx.statementStarting();
        ClassificationCache.Entry classified;
        try {
            classified = router.classifications().classify(sql);
        }
        catch (IllegalArgumentException e) {
            throw new SQLException("hibernate-rwsplit: " + e.getMessage(), "42000", e);
        }
        SqlKind kind = classified.kind();
        SqlHint hint = classified.hint();
        RouteReason reason = decide(kind, hint, sql);
        return connect(reason, sql);
    }

    /**
     * Applies the {@link RoutePolicy}'s decision: refuses a write in a read-only context, tells the
     * transaction about writes, and passes a gated read through the session's consistency level (once per
     * read-only transaction, at its first read).
     */
    private RouteReason decide(SqlKind kind, SqlHint hint, String sql) throws SQLException {
        TransactionTracker.Kind txKind = tx.kind();
        RoutePolicy.Route route = RoutePolicy.decide(kind, hint, txKind, tx.readOnlyConnection(), session.intent(),
                session.flushing());
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
                RouteReason reason = consistentRead(RouteReason.READ_ONLY_TRANSACTION, true);
                tx.consistencyChecked(reason.target() == io.rwsplit.Target.PRIMARY ? reason : null);
                return reason;
            }
            RouteReason primaryReason = tx.primaryReason();
            return primaryReason != null ? primaryReason : RouteReason.READ_ONLY_TRANSACTION;
        }
        return consistentRead(route.reason(), false);
    }

    /**
     * The session's consistency level applied to a read that may go to a replica (an autocommit read, a
     * replica hint, the first read of a read-only transaction): {@code replicaReason} when any replica will do,
     * a causal replica reason (the replica connection is then open and has applied the scope's last write), or
     * a primary reason. Cheap when the scope has no write to honour: a field read and a null check.
     */
    private RouteReason consistentRead(RouteReason replicaReason, boolean inTransaction) throws SQLException {
        SessionConsistency consistency = session.consistency();
        if (consistency == null) {
            return replicaReason;
        }
        Consistency level = session.consistencyLevel();
        switch (level.level()) {
            case EVENTUAL:
                return replicaReason;
            case STRONG:
                return RouteReason.STRONG_CONSISTENCY;
            case BOUNDED_STALENESS:
                return boundedStalenessRead(level.boundMicros(), inTransaction);
            default:
                break;
        }
        ConsistencyToken need = consistency.requirement();
        if (need == null) {
            return consistency.stateUnknown() ? RouteReason.READ_YOUR_WRITES_PRIMARY : replicaReason;
        }
        CausalReads causal = router.causal();
        if (!causal.byGtid(need)) {
            if (causal.withinWindow(need)) {
                return RouteReason.READ_YOUR_WRITES_PRIMARY;
            }
            consistency.settled(need);
            return replicaReason;
        }
        GtidPosition position = need.positionOrNull();
        if (replica == null) {
            ReplicaSet set = router.replicas();
            // a replica known to have applied the write, balanced among those that have; else any, made to wait
            ReplicaNode caughtUp = set.choose(node -> causal.applied(node.index(), position));
            if (caughtUp != null && open(caughtUp) != null) {
                return RouteReason.CAUSAL_REPLICA_CAUGHT_UP;
            }
            ReplicaNode chosen = set.choose();
            if (chosen == null) {
                return replicaReason; // no healthy replica: connect() falls back as for any read
            }
            if (open(chosen) == null && replica(inTransaction) == null) {
                return replicaReason;
            }
        }
        if (causal.applied(replicaNode.index(), position)) {
            return RouteReason.CAUSAL_REPLICA_CAUGHT_UP;
        }
        return causal.await(replica, replicaNode.index(), position)
                ? RouteReason.CAUSAL_WAIT : RouteReason.CAUSAL_TIMEOUT_PRIMARY;
    }

    /** A replica whose last measured lag is within the bound (balanced among those that are), else the primary. */
    private RouteReason boundedStalenessRead(long boundMicros, boolean inTransaction) throws SQLException {
        if (replica == null) {
            ReplicaSet set = router.replicas();
            if (set.candidates().isEmpty()) {
                return RouteReason.BOUNDED_STALENESS_REPLICA; // no healthy replica: connect() falls back
            }
            ReplicaNode chosen = set.choose(node -> node.lagMicros() <= boundMicros);
            if (chosen == null) {
                return RouteReason.STALENESS_BOUND_PRIMARY;
            }
            if (open(chosen) == null && replica(inTransaction) == null) {
                return RouteReason.BOUNDED_STALENESS_REPLICA;
            }
        }
        return replicaNode.lagMicros() <= boundMicros ? RouteReason.BOUNDED_STALENESS_REPLICA
                : RouteReason.STALENESS_BOUND_PRIMARY;
    }

    /** Records the write(s) the primary connection committed, for read-your-writes of the session's scope. */
    private void recordWrite() {
        if (primary != null) {
            session.consistency().committed(captureCommit());
        }
    }

    /**
     * The token of what the primary connection committed: read on that connection, or, when the pool has
     * already taken it back (a JTA pool does so when the transaction completes), on a fresh one.
     */
    private ConsistencyToken captureCommit() {
        try {
            if (!primary.isClosed()) {
                return router.causal().capture(primary);
            }
            Connection other = router.primary().acquire();
            try {
                return router.causal().captureElsewhere(other);
            }
            finally {
                router.primary().release(other);
            }
        }
        catch (SQLException e) {
            return router.causal().capture(primary); // reports the failure once and falls back to the time window
        }
    }

    private Connection connect(RouteReason reason, String sql) throws SQLException {
        if (reason.target() == io.rwsplit.Target.PRIMARY) {
            router.record(session, router.primaryDecision(reason), -1, sql);
            session.servedByPrimary();
            return primary();
        }
        Connection c = replica(tx.inTransaction());
        if (c == null) {
            RouteDecision fallback = router.noReplica(sql);
            router.record(session, fallback, -1, sql);
            session.servedByPrimary();
            return primary();
        }
        router.record(session, replicaNode.decision(reason), replicaNode.index(), sql);
        session.servedByReplica();
        replicaReason = reason;
        return c;
    }

    private Connection primary() throws SQLException {
        Connection c = primary;
        if (c == null) {
            tx.follow();
            c = router.primary().acquire();
            try {
                // a connection enlisted in a JTA transaction keeps the autocommit its transaction manager gave it
                if (tx.ownsAutoCommit() && c.getAutoCommit() != tx.autoCommit()) {
                    c.setAutoCommit(tx.autoCommit());
                }
                applySessionState(c);
            }
            catch (SQLException | RuntimeException e) {
                router.primary().release(c);
                throw e;
            }
            primary = c;
        }
        return c;
    }

    /** The open replica connection, or a new one from the balancer; null when no replica can serve. */
    private Connection replica(boolean inTransaction) throws SQLException {
        if (replica != null) {
            return replica;
        }
        if (inTransaction && tx.replicaUnavailable()) {
            return null;
        }
        ReplicaSet set = router.replicas();
        for (int attempt = 0; attempt < set.nodes().size(); attempt++) {
            ReplicaNode node = set.choose();
            if (node == null) {
                break;
            }
            Connection c = open(node);
            if (c != null) {
                return c;
            }
        }
        if (inTransaction) {
            // the whole read-only transaction then stays on the primary, for one consistent snapshot
            tx.replicaUnavailableInTransaction();
        }
        return null;
    }

    /** Opens a connection to {@code node} as this connection's replica connection; null (and the node marked down) on failure. */
    private Connection open(ReplicaNode node) throws SQLException {
        Connection c = router.borrow(node);
        if (c == null) {
            return null;
        }
        try {
            if (c.getAutoCommit() != tx.autoCommit()) {
                c.setAutoCommit(tx.autoCommit());
            }
            applySessionState(c);
        }
        catch (SQLException | RuntimeException e) {
            router.replicas().markDown(node, e);
            router.giveBack(node, c);
            return null;
        }
        replica = c;
        replicaNode = node;
        return c;
    }

    private void applySessionState(Connection c) throws SQLException {
        if (isolation != -1 && c.getTransactionIsolation() != isolation) {
            c.setTransactionIsolation(isolation);
        }
        if (catalog != null) {
            c.setCatalog(catalog);
        }
        if (schema != null) {
            c.setSchema(schema);
        }
        if (holdability != -1) {
            c.setHoldability(holdability);
        }
    }

    /** The connection of the current transaction for work that carries no SQL (savepoints, metadata, options). */
    private Connection current() throws SQLException {
        checkOpen();
        tx.follow();
        TransactionTracker.Kind txKind = tx.kind();
        if ((txKind == TransactionTracker.Kind.READ_ONLY_STRICT || txKind == TransactionTracker.Kind.READ_ONLY_PREFERRED)
                && replica != null) {
            return replica;
        }
        return primary();
    }

    /** {@link #current()}, for a statement asked for an option before it ran. */
    Connection connectionWithoutSql() throws SQLException {
        return current();
    }

    /** The replica behind {@code c} when {@code c} is this connection's replica connection, else null. */
    ReplicaNode replicaNodeOf(Connection c) {
        return c != null && c == replica ? replicaNode : null;
    }

    /** Whether the replica connection was chosen for a read that any replica may serve (no consistency bound). */
    boolean anyReplicaMayServe() {
        return replicaReason == RouteReason.REPLICA_READ || replicaReason == RouteReason.REPLICA_HINT;
    }

    /** Whether a read that failed on its replica may run again elsewhere: outside a transaction only. */
    boolean retriesReads() {
        return !tx.inTransaction();
    }

    /** Something to do on a physical connection. */
    @FunctionalInterface
    private interface ConnectionAction {
        void apply(Connection connection) throws SQLException;
    }

    /** Applies a setting change to every physical connection this logical connection has open. */
    private void forEachOpen(ConnectionAction action) throws SQLException {
        if (primary != null) {
            action.apply(primary);
        }
        if (replica != null) {
            action.apply(replica);
        }
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
        Connection c = route(sql);
        PreparedStatement ps = shape.prepare(c, sql);
        return c == replica ? onReplica(ps, sql, shape) : new PrimaryStatement(this, ps);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return new RoutedCallableStatement(this, route(sql).prepareCall(sql));
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return new RoutedCallableStatement(this, route(sql).prepareCall(sql, resultSetType, resultSetConcurrency));
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        return new RoutedCallableStatement(this,
                route(sql).prepareCall(sql, resultSetType, resultSetConcurrency, resultSetHoldability));
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

    // ------------------------------------------------------------------ replica health (failover of reads)

    /** Wraps a statement prepared on the replica: in-flight count, ejection on connection errors, retry of autocommit reads. */
    private PreparedStatement onReplica(PreparedStatement ps, String sql, StatementShape shape) {
        // a replica chosen for a consistency guarantee (caught up, within a staleness bound) is not interchangeable
        return new ReplicaStatement(this, replicaNode, ps, sql, retriesReads(), anyReplicaMayServe(), shape);
    }

    /** A statement that can move to another server when its replica fails under a read. */
    interface Retryable {
        /** Whether any replica may serve it (else a retry goes to the primary). */
        boolean anyReplica();

        String sql();

        /** Moves it to {@code connection} ({@code replica} null for the primary). */
        void retarget(Connection connection, ReplicaNode replica) throws SQLException;
    }

    /**
     * Moves an autocommit read whose replica failed before returning results to another healthy replica,
     * else to the primary (unless {@code fallback=fail}); a read whose replica was chosen for a consistency
     * guarantee goes to the primary. Returns false when it must not be retried.
     */
    boolean retry(Retryable statement, ReplicaNode failed) throws SQLException {
        if (tx.inTransaction() || closed) {
            return false;
        }
        if (replicaNode == failed) {
            Connection broken = replica;
            replica = null;
            replicaNode = null;
            try {
                router.giveBack(failed, broken);
            }
            catch (SQLException ignored) {
                // it is broken: the pool discards it
            }
        }
        Connection c = statement.anyReplica() ? replica(false) : null;
        if (c != null) {
            router.record(session, replicaNode.decision(RouteReason.RETRY_REPLICA), replicaNode.index(), statement.sql());
            session.servedByReplica();
            replicaReason = RouteReason.RETRY_REPLICA;
            statement.retarget(c, replicaNode);
            return true;
        }
        if (!router.fallsBackToPrimary()) {
            return false;
        }
        router.record(session, router.primaryDecision(RouteReason.RETRY_PRIMARY), -1, statement.sql());
        session.servedByPrimary();
        statement.retarget(primary(), null);
        return true;
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
        SQLException failure = null;
        failure = apply(primary, c -> c.setAutoCommit(autoCommit), failure);
        failure = apply(replica, c -> c.setAutoCommit(autoCommit), failure);
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
     * either way (the first failure is thrown, the next chained to it).
     */
    @Override
    public void commit() throws SQLException {
        checkOpen();
        if (tx.autoCommit()) {
            return;
        }
        SQLException failure = null;
        failure = apply(primary, Connection::commit, failure);
        failure = apply(replica, Connection::commit, failure);
        tx.committed();
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
        SQLException failure = null;
        failure = apply(primary, Connection::rollback, failure);
        failure = apply(replica, Connection::rollback, failure);
        tx.rolledBack();
        if (failure != null) {
            throw failure;
        }
    }

    /** Applies {@code action} to {@code c} when it is open; returns the failures so far, this one chained. */
    private static SQLException apply(Connection c, ConnectionAction action, SQLException failure) {
        if (c == null) {
            return failure;
        }
        try {
            action.apply(c);
            return failure;
        }
        catch (SQLException e) {
            return chain(failure, e);
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
        isolation = level;
        forEachOpen(c -> c.setTransactionIsolation(level));
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        if (isolation == -1) {
            isolation = current().getTransactionIsolation();
        }
        return isolation;
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
        SQLException failure = null;
        if (replica != null) {
            try {
                router.giveBack(replicaNode, replica);
            }
            catch (SQLException e) {
                failure = e;
            }
            replica = null;
            replicaNode = null;
        }
        if (primary != null) {
            try {
                router.primary().release(primary);
            }
            catch (SQLException e) {
                failure = chain(failure, e);
            }
            primary = null;
        }
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
        return (primary == null || primary.isValid(timeout)) && (replica == null || replica.isValid(timeout));
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        closed = true;
        if (primary != null) {
            primary.abort(executor);
        }
        if (replica != null) {
            replica.abort(executor);
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        SQLWarning warnings = primary == null ? null : primary.getWarnings();
        if (replica != null) {
            SQLWarning replicaWarnings = replica.getWarnings();
            if (warnings == null) {
                warnings = replicaWarnings;
            }
            else if (replicaWarnings != null) {
                warnings.setNextWarning(replicaWarnings);
            }
        }
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        forEachOpen(Connection::clearWarnings);
    }

    // ------------------------------------------------------------------ state kept and replayed

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        this.catalog = catalog;
        forEachOpen(c -> c.setCatalog(catalog));
    }

    @Override
    public String getCatalog() throws SQLException {
        return catalog != null ? catalog : current().getCatalog();
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        this.schema = schema;
        forEachOpen(c -> c.setSchema(schema));
    }

    @Override
    public String getSchema() throws SQLException {
        return schema != null ? schema : current().getSchema();
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        this.holdability = holdability;
        forEachOpen(c -> c.setHoldability(holdability));
    }

    @Override
    public int getHoldability() throws SQLException {
        return holdability != -1 ? holdability : current().getHoldability();
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
        return primary().getMetaData();
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

    private static SQLException chain(SQLException first, SQLException next) {
        if (first == null) {
            return next;
        }
        first.setNextException(next);
        return first;
    }

    @Override
    public String toString() {
        return "RoutingConnection[" + router.label() + ", tx=" + tx + ", primary=" + (primary != null)
                + ", replica=" + replicaNode + "]";
    }
}
