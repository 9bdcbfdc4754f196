package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

import io.rwsplit.internal.replica.ReplicaNode;

/**
 * A statement of {@link Connection#createStatement()}: it carries no SQL until it executes, so each execution
 * is routed by its own SQL, like a prepared statement, and runs on a driver statement created on the chosen
 * server (the options set so far are replayed on it). On a replica it keeps the replica's in-flight count,
 * and each execution goes through the connection's {@link Failover}, as those of a prepared statement do. {@link #getConnection()} returns the routing
 * connection. A batch runs on one server, the one its first statement routed to (its statements must all route
 * there, as writes do), on a driver statement that executions in between leave alone.
 */
final class RoutedStatement extends StatementOptions implements Failover.Door<Statement> {

    private final ConnectionRouting routing;
    private final StatementShape shape;
    /** The driver statement of the last execution, or null before the first. */
    private Statement physical;
    private Connection physicalOn;
    /** The replica {@link #physical} runs on, or null on the primary. */
    private ReplicaNode node;
    /** The replica whose in-flight count this statement holds, or null. */
    private ReplicaNode counted;
    /** The driver statement the pending batch was added to (kept apart from executions in between), or null. */
    private Statement batch;
    /** The connection the pending batch runs on, or null without one. */
    private Connection batchOn;
    private ReplicaNode batchNode;
    /** Whether the pending batch holds a statement that may write: its execution is a write. */
    private boolean batchWrites;
    private String sql;
    /** How the last execution was routed, or null before the first. */
    private StatementRoute route;
    private boolean closed;

    RoutedStatement(ConnectionRouting routing, StatementShape shape) {
        this.routing = routing;
        this.shape = shape;
    }

    // ------------------------------------------------------------------ routing and failover

    /** Routes {@code sql}, makes the driver statement one of the chosen server, and runs it through the failover. */
    private <T> T run(String sql, Failover.Execution<Statement, T> execution) throws SQLException {
        checkOpen();
        StatementRoute routed = routing.route(sql);
        moveTo(routing.connection(routed), routed.node());
        this.sql = sql;
        this.route = routed;
        return routing.failover().execute(this, execution);
    }

    /** Makes the driver statement one of {@code c} ({@code replica} null for the primary). */
    private void moveTo(Connection c, ReplicaNode replica) throws SQLException {
        if (physicalOn != c || physical.isClosed()) { // closed: closeOnCompletion
            adopt(newStatement(c), c, replica);
        }
        else {
            count(replica);
        }
    }

    /** A driver statement of {@code c} with this statement's options. */
    private Statement newStatement(Connection c) throws SQLException {
        Statement next = shape.create(c);
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
        if (counted != replica) {
            if (counted != null) {
                counted.inFlightCounter().decrementAndGet();
            }
            if (replica != null) {
                replica.inFlightCounter().incrementAndGet();
            }
            counted = replica;
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
            ReplicaNode replica = routing.currentReplica();
            moveTo(routing.connectionTo(replica), replica);
        }
        return physical;
    }

    @Override
    Statement current() {
        return physical;
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("hibernate-rwsplit: statement is closed", "HY010");
        }
    }

    // ------------------------------------------------------------------ executions

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        return results(run(sql, s -> s.executeQuery(sql)));
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return run(sql, s -> s.executeUpdate(sql));
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
        return run(sql, s -> s.execute(sql));
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
        StatementRoute routed = routing.route(sql);
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
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return batchStatement() == null ? new int[0] : physical.executeBatch();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        return batchStatement() == null ? new long[0] : physical.executeLargeBatch();
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
        if (batchWrites) {
            routing.writeExecuting();
        }
        Statement pending = batch;
        Connection on = batchOn;
        batch = null;
        batchOn = null;
        batchWrites = false;
        adopt(pending, on, batchNode);
        return pending;
    }

    // ------------------------------------------------------------------ results of the last execution

    /** A result set of this statement: it hands back this statement, not the driver's. */
    private ResultSet results(ResultSet results) {
        return results == null ? null : new RoutedResultSet(this, results);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return physical == null ? null : results(physical.getResultSet());
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
        return physical != null && physical.getMoreResults();
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        return physical != null && physical.getMoreResults(current);
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

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        if (counted != null) {
            counted.inFlightCounter().decrementAndGet();
            counted = null;
        }
        if (physical != null) {
            physical.close();
        }
        if (batch != null && batch != physical) {
            batch.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public Connection getConnection() {
        return routing.owner();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : prepared().unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || prepared().isWrapperFor(iface);
    }
}
