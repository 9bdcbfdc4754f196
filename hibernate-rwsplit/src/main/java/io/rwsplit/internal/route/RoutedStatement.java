package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;

import io.rwsplit.internal.replica.ReplicaNode;

/**
 * A statement of {@link Connection#createStatement()}: it carries no SQL until it executes, so each execution
 * is routed by its own SQL, like a prepared statement, and runs on a driver statement created on the chosen
 * server (the options set so far are replayed on it). On a replica it keeps the replica's in-flight count,
 * and each execution goes through the connection's {@link Failover}, as those of a prepared statement do. {@link #getConnection()} returns the routing
 * connection. A batch runs on one server: its statements must all route there (writes do).
 */
final class RoutedStatement implements Statement, Failover.Door<Statement> {

    /** One recorded option setter, replayed on every driver statement this statement creates. */
    @FunctionalInterface
    private interface Option {
        void apply(Statement statement) throws SQLException;
    }

    private final ConnectionRouting routing;
    private final StatementShape shape;
    private final ArrayList<Option> options = new ArrayList<>(2);
    /** The driver statement of the last execution, or null before the first. */
    private Statement physical;
    private Connection physicalOn;
    /** The replica {@link #physical} runs on, or null on the primary. */
    private ReplicaNode node;
    /** The replica whose in-flight count this statement holds, or null. */
    private ReplicaNode counted;
    /** The connection the pending batch runs on, or null without one. */
    private Connection batchOn;
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
            Statement next = shape.create(c);
            try {
                for (Option option : options) {
                    option.apply(next);
                }
            }
            catch (SQLException | RuntimeException e) {
                next.close();
                throw e;
            }
            Statement old = physical;
            physical = next;
            physicalOn = c;
            if (old != null) {
                try {
                    old.close();
                }
                catch (SQLException ignored) {
                    // its connection may be the broken one
                }
            }
        }
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
    private Statement prepared() throws SQLException {
        checkOpen();
        if (physical == null) {
            ReplicaNode replica = routing.currentReplica();
            moveTo(routing.connectionTo(replica), replica);
        }
        return physical;
    }

    private void option(Option option) throws SQLException {
        checkOpen();
        options.add(option);
        if (physical != null) {
            option.apply(physical);
        }
    }

    private void checkOpen() throws SQLException {
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

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        StatementRoute routed = routing.route(sql);
        Connection c = routing.connection(routed);
        if (batchOn != null && batchOn != c) {
            throw new SQLException("hibernate-rwsplit: a Statement batch runs on one server, but this statement"
                    + " routes to another one than the batch's first: " + sql, "0A000");
        }
        moveTo(c, routed.node());
        physical.addBatch(sql);
        batchOn = c;
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        if (physical != null) {
            physical.clearBatch();
        }
        batchOn = null;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        checkOpen();
        if (batchOn == null) {
            return new int[0];
        }
        batchOn = null;
        return physical.executeBatch();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        if (batchOn == null) {
            return new long[0];
        }
        batchOn = null;
        return physical.executeLargeBatch();
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

    // ------------------------------------------------------------------ options (recorded and replayed)

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        option(s -> s.setMaxFieldSize(max));
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        option(s -> s.setMaxRows(max));
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        option(s -> s.setLargeMaxRows(max));
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        option(s -> s.setEscapeProcessing(enable));
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        option(s -> s.setQueryTimeout(seconds));
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        option(s -> s.setCursorName(name));
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        option(s -> s.setFetchDirection(direction));
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        option(s -> s.setFetchSize(rows));
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        option(s -> s.setPoolable(poolable));
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        option(Statement::closeOnCompletion);
    }

    // ------------------------------------------------------------------ getters (the driver statement's)

    @Override
    public int getMaxFieldSize() throws SQLException {
        return prepared().getMaxFieldSize();
    }

    @Override
    public int getMaxRows() throws SQLException {
        return prepared().getMaxRows();
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return prepared().getLargeMaxRows();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        return prepared().getQueryTimeout();
    }

    @Override
    public int getFetchDirection() throws SQLException {
        return prepared().getFetchDirection();
    }

    @Override
    public int getFetchSize() throws SQLException {
        return prepared().getFetchSize();
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        return prepared().getResultSetConcurrency();
    }

    @Override
    public int getResultSetType() throws SQLException {
        return prepared().getResultSetType();
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return prepared().getResultSetHoldability();
    }

    @Override
    public boolean isPoolable() throws SQLException {
        return prepared().isPoolable();
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        return prepared().isCloseOnCompletion();
    }

    @Override
    public String enquoteLiteral(String val) throws SQLException {
        return prepared().enquoteLiteral(val);
    }

    @Override
    public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException {
        return prepared().enquoteIdentifier(identifier, alwaysQuote);
    }

    @Override
    public boolean isSimpleIdentifier(String identifier) throws SQLException {
        return prepared().isSimpleIdentifier(identifier);
    }

    @Override
    public String enquoteNCharLiteral(String val) throws SQLException {
        return prepared().enquoteNCharLiteral(val);
    }
}
