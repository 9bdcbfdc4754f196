package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.stats.QueryShapes;

/**
 * A statement of {@link Connection#createStatement()}: it carries no SQL until it executes, so each execution
 * is routed by its own SQL, like a prepared statement, and runs on a driver statement created on the chosen
 * server (the options set so far are replayed on it). On a replica it keeps the replica's in-flight count,
 * and each execution goes through the connection's {@link Failover}, as those of a prepared statement do. {@link #getConnection()} returns the routing
 * connection. A batch runs on one server, the one its first statement routed to (its statements must all route
 * there, as writes do), on a driver statement that executions in between leave alone. Each execution counts for its
 * query shape, and a replica read the stale-read audit samples is checked once its results are closed, as a prepared
 * statement's ({@link ReadAudit.Sample}): its result set closed, the next execution, or the statement's close.
 * The application holds its handle ({@link StatementHandle}); once closed, the body is kept by its connection for
 * the next {@code createStatement} ({@link StatementDoors#idle(RoutedStatement, RoutingConnection)}). Set to close on
 * completion, it is closed, handle and all, once its driver statement closed with its results, as JDBC says.
 */
final class RoutedStatement extends StatementOptions implements Failover.Door<Statement>, ResultsOwner {

    private final ConnectionRouting routing;
    /** The connection that made it, what {@link #getConnection()} returns (its parts may serve another one later). */
    private RoutingConnection owner;
    /** What the application holds of it, and what its result sets hand back. */
    private StatementHandle handle;
    /** The {@code createStatement} overload that made it. */
    private StatementShape overload;
    /** The driver statement of the last execution, or null before the first. */
    private Statement physical;
    private Connection physicalOn;
    /** The replica {@link #physical} runs on, or null on the primary. */
    private ReplicaNode node;
    /** The replica whose in-flight count this statement holds ({@link InFlightCounts}), or null. */
    private ReplicaNode counted;
    /** The driver statement the pending batch was added to (kept apart from executions in between), or null. */
    private Statement batch;
    /** The connection the pending batch runs on, or null without one. */
    private Connection batchOn;
    private ReplicaNode batchNode;
    /** Whether the pending batch holds a statement that may write: its execution is a write. */
    private boolean batchWrites;
    /** Whether a statement of the pending batch is a write by kind (refused in a read-only context begun since). */
    private boolean batchWriteLike;
    /** The query shapes of the pending batch's statements ({@link #batchSize} of them), or null before the first. */
    private QueryShapes.Shape[] batchShapes;
    private int batchSize;
    private String sql;
    /** How the last execution was routed, or null before the first. */
    private StatementRoute route;
    /** The query shape of the last execution's SQL, or null before the first. */
    private QueryShapes.Shape queryShape;
    /** The last execution, a replica read the stale-read audit sampled, until its results are closed; else null. */
    private ReadAudit.Sample audit;
    /** Whether it is closed: a body is, until it is opened for a statement and from its close on. */
    private boolean closed = true;

    /** A statement body of {@code routing}'s connections, opened for each statement ({@link #open}). */
    RoutedStatement(ConnectionRouting routing) {
        this.routing = routing;
    }

    /** Makes this body a statement of {@code owner} made by {@code overload}; the handle the application holds. */
    Statement open(RoutingConnection owner, StatementShape overload) {
        this.owner = owner;
        if (this.overload != overload) {   // a shared value, kept while idle: written only when it changes (a barrier each)
            this.overload = overload;
        }
        this.closed = false;
        StatementHandle handed = new StatementHandle(this);
        this.handle = handed;
        return handed;
    }

    // ------------------------------------------------------------------ routing and failover

    /** Routes {@code sql}, makes the driver statement one of the chosen server, and runs it through the failover. */
    private <T> T run(String sql, Failover.Execution<Statement, T> execution) throws SQLException {
        checkOpen();
        auditPending();   // the last execution's results are closed once this one runs, before anything moves
        ClassificationCache.Entry classified = routing.classify(sql);
        StatementRoute routed = routing.route(classified, overload.updatable());
        moveTo(routing.connection(routed), routed.node());
        this.sql = sql;
        this.queryShape = classified.shape();
        this.route = routed;
        ReadAudit.Sample sample = node != null ? routing.auditSample() : null;
        T result = routing.failover().execute(this, execution);
        if (sample != null && node != null) {
            audit = sample.ran(physical, queryShape);   // where it ran, after any move
        }
        return result;
    }

    /** Audits the last execution, if sampled, on the replica connection it ran on: its results are closed now. */
    private void auditPending() {
        ReadAudit.Sample sample = audit;
        if (sample != null) {
            audit = null;
            sample.resultsClosed();
        }
    }

    @Override
    public void resultsClosed(ResultSet results) {
        ReadAudit.Sample sample = audit;
        if (sample != null && sample.endsWith(results)) {
            auditPending();
        }
        closedOnCompletion();
    }

    /**
     * Its results are closed. Set to close on completion, its driver statement closed itself with them, and JDBC then
     * takes the statement for closed ({@code isClosed()} true, every later call but {@code close} refused): this one
     * closes too, through its handle, as if the application had closed it (giving back its replica's in-flight count),
     * so that a later execution throws instead of making a new driver statement. Not set so, nothing is asked of the
     * driver (MySQL Connector/J's {@code isClosed()} takes the connection's lock): a driver statement closed under it
     * (its connection given back after a failure) is replaced at the next execution, which moves its count.
     */
    private void closedOnCompletion() {
        if (!closesOnCompletion()) {
            return;
        }
        Statement current = physical;
        try {
            if (current == null || !current.isClosed()) {
                return;
            }
        }
        catch (SQLException e) {
            return;   // its close, or its connection's, gives the count back
        }
        try {
            handle.close();   // this body with it, which gives the count back
        }
        catch (SQLException ignored) {
            // its driver statement is closed already; the body let go of the rest either way
        }
    }

    /** Makes the driver statement one of {@code c} ({@code replica} null for the primary). */
    private void moveTo(Connection c, ReplicaNode replica) throws SQLException {
        if (physicalOn != c || physical.isClosed()) { // closed under it: its connection given back after a failure
            adopt(newStatement(c), c, replica);
        }
        else {
            count(replica);
        }
    }

    /** A driver statement of {@code c} with this statement's options. */
    private Statement newStatement(Connection c) throws SQLException {
        Statement next = overload.create(c);
        try {
            replayOptions(next);
        }
        catch (SQLException | RuntimeException e) {
            next.close();
            throw e;
        }
        return next;
    }

    /** {@code next} (of {@code c}) becomes the driver statement of the executions; the one before it is closed. */
    private void adopt(Statement next, Connection c, ReplicaNode replica) {
        Statement old = physical;
        physical = next;
        physicalOn = c;
        if (old != null && old != next && old != batch) {
            try {
                old.close();
            }
            catch (SQLException ignored) {
                // its connection may be the broken one
            }
        }
        count(replica);
    }

    /** The statement runs on {@code replica} (null: the primary) and holds its in-flight count. */
    private void count(ReplicaNode replica) {
        node = replica;
        if (counted != replica && (counted != null || routing.router().replicas().countsInFlight())) {
            if (counted != null) {
                routing.inFlight().release(counted, owner);
            }
            counted = replica != null && routing.inFlight().hold(replica, owner) ? replica : null;
        }
    }

    @Override
    public void retarget(Connection connection, ReplicaNode replica) throws SQLException {
        moveTo(connection, replica);
    }

    @Override
    public String sql() {
        return sql;
    }

    @Override
    public QueryShapes.Shape shape() {
        return queryShape;
    }

    @Override
    public Statement physical() {
        return physical;
    }

    @Override
    public ReplicaNode node() {
        return node;
    }

    /** Each execution carries its own SQL and runs once: it can always be sent again where the failover allows. */
    @Override
    public boolean replayable() {
        return true;
    }

    @Override
    public StatementRoute route() {
        return route;
    }

    /** The driver statement, created on the connection of the current transaction if nothing ran yet. */
    @Override
    Statement prepared() throws SQLException {
        checkOpen();
        if (physical == null) {
            ReplicaNode replica = routing.place().currentReplica();
            moveTo(routing.place().connectionTo(replica), replica);
        }
        return physical;
    }

    @Override
    Statement current() {
        return physical;
    }

    @Override
    Statement pendingBatch() {
        return batch;
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("hibernate-rwsplit: statement is closed", "HY010");
        }
        owner.checkOpen();   // its connection's parts may serve another session by now
    }

    // ------------------------------------------------------------------ executions

    // The executions of the SQL the statement runs now ({@link #sql}, set before it runs), made once per body: the
    // usual executions allocate nothing for themselves (the overloads with more arguments capture them).
    private final Failover.Execution<Statement, ResultSet> executeQuery = s -> s.executeQuery(sql);
    private final Failover.Execution<Statement, Integer> executeUpdate = s -> s.executeUpdate(sql);
    private final Failover.Execution<Statement, Boolean> execute = s -> s.execute(sql);

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        ResultSet results = run(sql, executeQuery);
        return results(audit == null ? results : audit.handedOut(results));
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return run(sql, executeUpdate);
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return run(sql, s -> s.executeUpdate(sql, autoGeneratedKeys));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return run(sql, s -> s.executeUpdate(sql, columnIndexes));
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return run(sql, s -> s.executeUpdate(sql, columnNames));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        return run(sql, s -> s.executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return run(sql, s -> s.executeLargeUpdate(sql, autoGeneratedKeys));
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return run(sql, s -> s.executeLargeUpdate(sql, columnIndexes));
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return run(sql, s -> s.executeLargeUpdate(sql, columnNames));
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return run(sql, execute);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return run(sql, s -> s.execute(sql, autoGeneratedKeys));
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return run(sql, s -> s.execute(sql, columnIndexes));
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return run(sql, s -> s.execute(sql, columnNames));
    }

    // ------------------------------------------------------------------ batches (one server)

    /**
     * Adds to the batch on the driver statement of the server its first statement routed to; executions in between
     * (a read on a replica) use another driver statement and leave the batch where it is.
     */
    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        ClassificationCache.Entry classified = routing.classify(sql);
        StatementRoute routed = routing.route(classified, overload.updatable());
        Connection c = routing.connection(routed);
        if (batchOn != null && batchOn != c) {
            throw new SQLException("hibernate-rwsplit: a Statement batch runs on one server, but this statement"
                    + " routes to another one than the batch's first: " + sql, "0A000");
        }
        if (batch == null) {
            batch = physicalOn == c && !physical.isClosed() ? physical : newStatement(c);
            batchOn = c;
            batchNode = routed.node();
        }
        batch.addBatch(sql);
        batchWrites |= routed.writes();
        batchWriteLike |= overload.updatable() || classified.kind().writeLike();
        if (batchShapes == null || batchSize == batchShapes.length) {
            batchShapes = batchShapes == null ? new QueryShapes.Shape[8] : java.util.Arrays.copyOf(batchShapes, batchSize * 2);
        }
        batchShapes[batchSize++] = classified.shape();
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        if (batch != null) {
            batch.clearBatch();
            if (batch != physical) {
                batch.close();
            }
        }
        batch = null;
        batchOn = null;
        batchWrites = false;
        batchWriteLike = false;
        batchSize = 0;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        int[] counts = timedBatch(Statement::executeBatch);
        return counts == null ? new int[0] : counts;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        long[] counts = timedBatch(Statement::executeLargeBatch);
        return counts == null ? new long[0] : counts;
    }

    /** Runs the pending batch and times it for its statements' shapes; null without a batch. */
    private <T> T timedBatch(Failover.Execution<Statement, T> execution) throws SQLException {
        int statements = batchSize;
        if (batchStatement() == null) {
            return null;
        }
        long start = routing.nanoTime();
        T counts = execution.run(physical);
        batchTimed(statements, routing.nanoTime() - start);
        return counts;
    }

    /**
     * A batch of {@code statements} ran in {@code nanos}: the driver reports one time for all, so each statement counts
     * one execution of its shape taking an equal part of it.
     */
    private void batchTimed(int statements, long nanos) {
        long each = nanos / Math.max(1, statements);
        for (int i = 0; i < statements; i++) {
            batchShapes[i].executed(node != null, each);
            batchShapes[i] = null;
        }
    }

    /**
     * The pending batch's driver statement, made the one of this execution (its results are the batch's), or null
     * without a batch. A batch that may write is a write now: whatever ran since it was added recorded nothing of it.
     */
    private Statement batchStatement() throws SQLException {
        checkOpen();
        if (batch == null) {
            return null;
        }
        auditPending();   // the last execution's results are closed once the batch runs
        if (batchNode == null) {
            routing.physical().checkPrimaryNotMoved();   // nothing runs where the driver moved the connection
        }
        if (batchWrites || batchWriteLike) {
            routing.writeExecuting(batchWrites, batchWriteLike);   // the context may have changed since it was added
        }
        Statement pending = batch;
        Connection on = batchOn;
        batch = null;
        batchOn = null;
        batchWrites = false;
        batchWriteLike = false;
        batchSize = 0;
        adopt(pending, on, batchNode);
        return pending;
    }

    // ------------------------------------------------------------------ results of the last execution

    /** A result set of this statement: it hands back this statement, not the driver's. */
    private ResultSet results(ResultSet results) {
        return results == null ? null : new RoutedResultSet(handle, results);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        if (physical == null) {
            return null;
        }
        ResultSet results = physical.getResultSet();
        return results(audit == null ? results : audit.handedOut(results));
    }

    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return physical == null ? -1 : physical.getUpdateCount();
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return physical == null ? -1 : physical.getLargeUpdateCount();
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        checkOpen();
        boolean more = physical != null && physical.getMoreResults();
        if (!more) {
            auditPending();   // the current result set is closed, and a replica read has no other
            closedOnCompletion();
        }
        return more;
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        boolean more = physical != null && physical.getMoreResults(current);
        if (!more && current != KEEP_CURRENT_RESULT) {
            auditPending();
            closedOnCompletion();
        }
        return more;
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        return results(prepared().getGeneratedKeys());
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return physical == null ? null : physical.getWarnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        if (physical != null) {
            physical.clearWarnings();
        }
    }

    @Override
    public void cancel() throws SQLException {
        checkOpen();
        if (physical != null) {
            physical.cancel();
        }
    }

    /** Cancels the running execution if this body still serves {@code of} (its handle: another thread's call). */
    void cancel(Statement of) throws SQLException {
        Statement current = physical;
        if (handle == of && !closed && current != null) {
            current.cancel();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Closes the statement (its handle's close: once only); its body waits for the next one while its connection is
     * still open, holding nothing of it.
     */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            release();
        }
        finally {
            RoutingConnection by = owner;
            forget();
            routing.doors().idle(this, by);
        }
    }

    /** Nothing of the closed statement stays reachable; {@link #closed} stays true until it is opened again. */
    private void forget() {
        owner = null;
        handle = null;
        physical = null;
        physicalOn = null;
        node = null;
        batch = null;
        batchOn = null;
        batchNode = null;
        batchWrites = false;
        batchWriteLike = false;
        if (batchShapes != null) {
            java.util.Arrays.fill(batchShapes, null);
        }
        batchSize = 0;
        sql = null;
        route = null;
        queryShape = null;
        audit = null;
        forgetOptions();
    }

    /** Releases what the open statement holds: its replica's count, its driver statements, a pending audit. */
    private void release() throws SQLException {
        ReadAudit.Sample pending = audit;
        audit = null;
        if (counted != null) {
            routing.inFlight().release(counted, owner);
            counted = null;
        }
        try {
            if (physical != null) {
                physical.close();
            }
        }
        finally {
            try {
                if (batch != null && batch != physical) {
                    batch.close();   // also when the first close failed: the body forgets both
                }
            }
            finally {
                if (pending != null) {
                    pending.resultsClosed();   // the driver statement and its results are closed; its connection is not
                }
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public Connection getConnection() {
        return owner;
    }

    /** The handle, never this body, or what the driver's statement unwraps to. */
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(handle) ? iface.cast(handle) : prepared().unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(handle) || prepared().isWrapperFor(iface);
    }
}
