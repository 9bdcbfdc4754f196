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

    private boolean closed;
    /** The statement being routed is an autocommit read: it may wait for a failover of the primary. */
    private boolean autocommitRead;
    /** Its replica reason when the consistency gate decides it (it may then be served by a replica), else null. */
    private RouteReason gatedReason;

    RoutingConnection(Router router, SessionRouting session, boolean readOnlySession) {
        this.router = router;
        this.session = session;
        this.gate = new ConsistencyGate(router, session);
        this.tx = new TransactionTracker(session, router.transactionStatus(), readOnlySession, gate);
        this.physical = new PhysicalConnections(router, tx);
        gate.connections(physical);
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
        physical.statementStarting();
        ClassificationCache.Entry classified;
        try {
            classified = router.classifications().classify(sql);
        }
        catch (IllegalArgumentException e) {
            throw new SQLException("hibernate-rwsplit: " + e.getMessage(), "42000", e);
        }
        SessionState.Effect effect = classified.effect();
        RouteReason reason = decide(classified.kind(), classified.hint(), effect == SessionState.Effect.REPLAYED, sql);
        Connection c = connect(reason, sql);
        if (effect == SessionState.Effect.PINS) {
            physical.pinToPrimary(); // it runs on the primary (never a plain read): the rest stays with its state
        }
        else if (effect == SessionState.Effect.REPLAYED) {
            physical.sessionCommand(sql); // it runs on the primary; replica connections replay it
        }
        return c;
    }

    /**
     * Applies the {@link RoutePolicy}'s decision: refuses a write in a read-only context, tells the
     * transaction about writes, and passes a gated read through the session's consistency level (once per
     * read-only transaction, at its first read).
     */
    private RouteReason decide(SqlKind kind, SqlHint hint, boolean sessionCommand, String sql) throws SQLException {
        TransactionTracker.Kind txKind = tx.kind();
        RoutePolicy.Route route = RoutePolicy.decide(kind, hint, txKind, tx.readOnlyConnection(), session.intent(),
                session.flushing(), physical.pinnedToPrimary(), sessionCommand);
        autocommitRead = !kind.primaryOnly() && txKind == TransactionTracker.Kind.NONE && !route.refused()
                && (route.gated() || route.reason() == RouteReason.PRIMARY_HINT);
        gatedReason = autocommitRead && route.gated() ? route.reason() : null;
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

    private Connection connect(RouteReason reason, String sql) throws SQLException {
        if (reason.target() == io.rwsplit.Target.PRIMARY) {
            router.record(session, router.primaryDecision(reason), -1, sql);
            session.servedByPrimary();
            return primary(sql);
        }
        Connection c = physical.replica(tx.inTransaction());
        SQLException poolTimeout = physical.poolTimeout();
        if (c == null) {
            // a replica that could not replay the session commands pins the connection: the primary, with its settings
            RouteDecision fallback = physical.pinnedToPrimary() ? router.primaryDecision(RouteReason.SESSION_STATE)
                    : router.noReplica(sql, poolTimeout);
            router.record(session, fallback, -1, sql);
            session.servedByPrimary();
            return primary(sql);
        }
        ReplicaNode node = physical.replicaNode();
        // a read that any replica may serve says so when a busy pool sent it to this one; consistency reasons stay
        boolean movedByBusyPool = poolTimeout != null && (reason == RouteReason.REPLICA_READ
                || reason == RouteReason.REPLICA_HINT || reason == RouteReason.READ_ONLY_TRANSACTION);
        router.record(session, node.decision(movedByBusyPool ? RouteReason.REPLICA_POOL_EXHAUSTED_REPLICA : reason),
                node.index(), sql);
        session.servedByReplica();
        physical.servesFor(reason);
        return c;
    }

    /**
     * The primary connection; an autocommit read that cannot get one waits for a failover ({@link #awaitFailover}),
     * as does one while a failover may be under way ({@link Router#primarySuspect}): it is served only by a server
     * that is writable, never by a replica a multi-host primary URL led to before its promotion.
     */
    private Connection primary(String sql) throws SQLException {
        if (autocommitRead && router.primarySuspect()) {
            return awaitFailover(sql, new java.sql.SQLTransientConnectionException("hibernate-rwsplit [" + router.label()
                    + "]: no writable server answers the primary URL yet (a failover may be under way)", "08001"),
                    failoverDeadline());
        }
        try {
            return physical.primary();
        }
        catch (SQLException e) {
            if (!autocommitRead || !isConnectionError(e)) {
                throw e;
            }
            return awaitFailover(sql, e, failoverDeadline());
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

    /** Whether the replica connection was chosen for a read that any replica may serve (no consistency bound). */
    boolean anyReplicaMayServe() {
        RouteReason reason = physical.replicaReason();
        return reason == RouteReason.REPLICA_READ || reason == RouteReason.REPLICA_HINT;
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
        Connection c = route(sql);
        PreparedStatement ps = shape.prepare(c, sql);
        if (c == physical.openReplica()) {
            return onReplica(ps, sql, shape);
        }
        // an autocommit read on the primary records its parameters: it may run again after a failover
        return autocommitRead ? new ReplicaStatement(this, null, ps, sql, true, gatedReason != null, shape)
                : new PrimaryStatement(this, ps);
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
        return new ReplicaStatement(this, physical.replicaNode(), ps, sql, retriesReads(), anyReplicaMayServe(), shape);
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
        physical.dropReplica(failed);
        Connection c = statement.anyReplica() ? physical.replica(false) : null;
        if (c != null) {
            ReplicaNode node = physical.replicaNode();
            router.record(session, node.decision(RouteReason.RETRY_REPLICA), node.index(), statement.sql());
            session.servedByReplica();
            physical.servesFor(RouteReason.RETRY_REPLICA);
            statement.retarget(c, node);
            return true;
        }
        if (!router.fallsBackToPrimary()) {
            return false;
        }
        router.record(session, router.primaryDecision(RouteReason.RETRY_PRIMARY), -1, statement.sql());
        session.servedByPrimary();
        statement.retarget(physical.primary(), null);
        return true;
    }

    /**
     * Moves an autocommit statement a replica refused as a write (SQLState 25006) to the primary, where it
     * belongs; reason {@link RouteReason#REPLICA_REFUSED_WRITE}. Returns false inside a transaction.
     */
    boolean retryOnPrimary(Retryable statement) throws SQLException {
        if (tx.inTransaction() || closed) {
            return false;
        }
        router.record(session, router.primaryDecision(RouteReason.REPLICA_REFUSED_WRITE), -1, statement.sql());
        session.servedByPrimary();
        tx.wrote(); // it was refused as a write: read-your-writes must cover it
        statement.retarget(physical.primary(), null);
        return true;
    }

    // ------------------------------------------------------------------ failover of the primary (reads)

    /** Whether the statement last routed is an autocommit read (it may wait for the primary to come back). */
    boolean routedAutocommitRead() {
        return autocommitRead;
    }

    /** Until when an autocommit read that lost the primary now may wait for it: see {@link Router#failoverWaitNanos()}. */
    long failoverDeadline() {
        return router.replicas().clock().nanoTime() + router.failoverWaitNanos();
    }

    /**
     * An autocommit read lost the primary (it could not connect, or the connection broke before any result):
     * it is served by a replica that meets the read's consistency requirement as soon as one does, else by the
     * primary as soon as it answers again (the primary URL may lead to a new server by then), trying every probe
     * interval until {@code deadline}, or until the thread is interrupted (the interrupt is kept); then {@code failure} is thrown. Writes never come here: whether a write
     * that lost its connection committed is unknown, so it is never sent again.
     */
    private Connection awaitFailover(String sql, SQLException failure, long deadline) throws SQLException {
        physical.dropPrimary();
        router.primaryConnectionFailed();
        io.rwsplit.spi.Clock clock = router.replicas().clock();
        while (true) {
            if (gatedReason != null && gate.read(gatedReason, false).target() == io.rwsplit.Target.REPLICA) {
                Connection c = physical.replica(false);
                if (c != null) {
                    ReplicaNode node = physical.replicaNode();
                    router.record(session, node.decision(RouteReason.RETRY_REPLICA), node.index(), sql);
                    session.servedByReplica();
                    physical.servesFor(RouteReason.RETRY_REPLICA);
                    return c;
                }
            }
            Connection got = null;
            try {
                Connection c = physical.primary();
                got = c;
                if (router.primarySuspect() && !io.rwsplit.health.ServerRole.isWritable(c)) {
                    // a replica behind a multi-host primary URL, not promoted yet: it may lack writes
                    throw new java.sql.SQLTransientConnectionException("hibernate-rwsplit [" + router.label()
                            + "]: the server behind the primary URL is read-only (a failover may be under way)", "08001");
                }
                router.record(session, router.primaryDecision(RouteReason.RETRY_PRIMARY), -1, sql);
                session.servedByPrimary();
                return c;
            }
            catch (SQLException e) {
                // a connection the pool lent whose check failed (its backend is gone, or the pool closed it when it
                // found it broken: "Connection is closed" comes without an SQLState) is a connection error too
                boolean broken = isConnectionError(e) || closed(got);
                physical.dropPrimary(); // and it is not offered again
                long left = deadline - clock.nanoTime();
                boolean interrupted = Thread.currentThread().isInterrupted();
                if (!broken || left <= 0 || interrupted) {
                    if (e != failure) {
                        failure.addSuppressed(e);
                    }
                    if (interrupted) {
                        // the caller asked this thread to stop: give up now, and leave the interrupt for it to see
                        failure.addSuppressed(new InterruptedException("hibernate-rwsplit: interrupted while waiting"
                                + " for the primary's failover"));
                    }
                    throw failure;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(router.failoverPauseNanos(), left));
            }
        }
    }

    private static boolean closed(Connection c) {
        try {
            return c != null && c.isClosed();
        }
        catch (SQLException e) {
            return true;
        }
    }

    /**
     * Moves an autocommit read whose primary connection broke before any result (a failover) to a server that
     * can serve it, waiting for one until {@code deadline} ({@link #awaitFailover}). {@code failure} is a
     * connection error ({@link ReplicaStatement#isConnectionError}, as for a replica). False when it must not be
     * retried (in a transaction, or the primary holds session state of this connection).
     */
    boolean retryAfterPrimaryFailure(Retryable statement, SQLException failure, long deadline) throws SQLException {
        if (tx.inTransaction() || closed || physical.pinnedToPrimary()) {
            return false;
        }
        Connection c = awaitFailover(statement.sql(), failure, deadline);
        statement.retarget(c, physical.replicaNodeOf(c));
        return true;
    }

    /** How many exceptions of a chain (causes and next exceptions together) {@link #isConnectionError} reads. */
    private static final int CHAIN_LIMIT = 10;

    /**
     * Whether {@code e} says the server or the connection is gone: SQLState class 08, PostgreSQL's states of a
     * session the server ended ({@code 57P01} admin shutdown, which is also "terminating connection due to
     * unexpected postmaster exit"; {@code 57P02} crash shutdown; {@code 57P03} cannot connect now), or a JDBC
     * connection exception type, on {@code e}, its causes or its next exceptions. pgjdbc reports a backend that
     * ended the session as {@code 57P01} with the I/O error ({@code 08006}) as its next exception, not its cause.
     * A pool's own timeout ({@link #isPoolTimeout}) is not one, although HikariCP gives it a connection exception type.
     */
    public static boolean isConnectionError(SQLException e) {
        if (isPoolTimeout(e)) {
            return false;
        }
        int read = 0;
        for (SQLException next = e; next != null && read < CHAIN_LIMIT; next = next.getNextException()) {
            for (Throwable t = next; t != null && read < CHAIN_LIMIT; t = t.getCause()) {
                read++;
                if (saysConnectionGone(t)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** How pools word their own timeout, lower case: HikariCP, Agroal, c3p0, DBCP2 (commons-pool), Tomcat JDBC. */
    private static final String[] POOL_TIMEOUT_WORDS = {
            "connection is not available, request timed out", "acquisition timeout",
            "checkout a connection has timed out", "timeout waiting for idle object", "timeout: pool empty"};

    /**
     * Whether {@code e} is a pool's own report that it could not lend a connection in time, which says nothing about
     * the server behind it (saturation is not failure): worded as one of {@link #POOL_TIMEOUT_WORDS}, with no SQLState,
     * no next exception, and no failure of the driver or the network (an {@link SQLException} or an
     * {@link java.io.IOException}) among its causes. HikariCP gives its timeout the driver's last failure to connect
     * as cause and next exception (and its SQLState) when there was one since its last connection: then it is a
     * failure of the server. Used wherever a failure to obtain a connection is judged: replica ejection on borrow,
     * the primary circuit breaker, and {@link #isConnectionError}.
     */
    public static boolean isPoolTimeout(SQLException e) {
        String message = e.getMessage();
        if (message == null || e.getSQLState() != null || e.getNextException() != null) {
            return false;
        }
        int read = 0;
        for (Throwable t = e.getCause(); t != null && read < CHAIN_LIMIT; t = t.getCause()) {
            read++;
            if (t instanceof SQLException || t instanceof java.io.IOException) {
                return false;
            }
        }
        String lower = message.toLowerCase(java.util.Locale.ROOT);
        for (String words : POOL_TIMEOUT_WORDS) {
            if (lower.contains(words)) {
                return true;
            }
        }
        return false;
    }

    private static boolean saysConnectionGone(Throwable t) {
        if (t instanceof java.sql.SQLTransientConnectionException || t instanceof java.sql.SQLNonTransientConnectionException
                || t instanceof java.sql.SQLRecoverableException) {
            return true;
        }
        String state = t instanceof SQLException sqle ? sqle.getSQLState() : null;
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03"));
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
