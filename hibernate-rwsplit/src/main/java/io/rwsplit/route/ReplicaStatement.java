package io.rwsplit.route;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A statement prepared on a replica, or an autocommit read prepared on the primary. It keeps the replica's in-flight count (from its first execution
 * to its close), takes the replica out of rotation at once when an execution fails with a connection
 * error, and, for an autocommit read, executes once more elsewhere (another healthy replica, else the
 * primary) when that failure happened before any result was handed out: the statement is prepared
 * again there and its recorded parameters and options are replayed. An autocommit statement the
 * replica refused as a write (SQLState 25006) is run once on the primary, without ejecting the replica.
 * An autocommit read on the primary whose connection broke before any result (a failover) moves to a
 * replica that meets its consistency requirement or to the primary once it answers again, trying until a
 * deadline ({@link RoutingConnection#failoverDeadline()}).
 * Inside a transaction, after a first successful execution, or with a stream parameter, the error goes
 * to the caller unchanged.
 */
final class ReplicaStatement extends ForwardingPreparedStatement implements RoutingConnection.Retryable {

    /** SQLState "read-only SQL transaction": what a read-only replica answers to a write. */
    static final String READ_ONLY_REFUSAL = "25006";

    private final RoutingConnection routing;
    private final String sql;
    private final boolean anyReplica;
    private final StatementShape shape;
    /** The replica the delegate runs on, or null after a retry moved it to the primary. */
    private ReplicaNode node;
    private boolean executed;
    private boolean counted;
    /** Until when this read may wait for a failover of the primary (nanoTime); 0 until the primary failed it. */
    private long failoverDeadline;

    /**
     * @param retryable whether it is an autocommit read that may be retried elsewhere
     * @param anyReplica whether any replica may serve it (else a retry goes to the primary)
     * @param shape      the {@code prepareStatement} overload that made it, to prepare it again elsewhere
     */
    ReplicaStatement(RoutingConnection owner, ReplicaNode node, PreparedStatement delegate, String sql, boolean retryable,
                     boolean anyReplica, StatementShape shape) {
        super(owner, delegate, retryable);
        this.routing = owner;
        this.anyReplica = anyReplica;
        this.node = node;
        this.sql = sql;
        this.shape = shape;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        starting();
        try {
            try {
                return delegate.executeQuery();
            }
            catch (SQLException e) {
                failed(e);
            }
            while (true) {
                try {
                    return delegate.executeQuery();
                }
                catch (SQLException again) {
                    failedAgain(again);
                }
            }
        }
        finally {
            executed = true;
        }
    }

    @Override
    public boolean execute() throws SQLException {
        starting();
        try {
            try {
                return delegate.execute();
            }
            catch (SQLException e) {
                failed(e);
            }
            while (true) {
                try {
                    return delegate.execute();
                }
                catch (SQLException again) {
                    failedAgain(again);
                }
            }
        }
        finally {
            executed = true;
        }
    }

    @Override
    public void addBatch() throws SQLException {
        unreplayable();
        delegate.addBatch();
    }

    @Override
    public void clearParameters() throws SQLException {
        delegate.clearParameters();
        if (bindings != null) {
            bind(PreparedStatement::clearParameters);
        }
    }

    @Override
    public void close() throws SQLException {
        if (counted) {
            counted = false;
            if (node != null) {
                node.inFlightCounter().decrementAndGet();
            }
        }
        delegate.close();
    }

    private void starting() {
        if (!counted && node != null) {
            counted = true;
            node.inFlightCounter().incrementAndGet();
        }
    }

    /**
     * Handles a failed execution: a connection error ejects the replica; when the read may be retried the
     * delegate is replaced by one prepared elsewhere and the method returns, else it rethrows {@code e}.
     */
    private void failed(SQLException e) throws SQLException {
        ReplicaNode failedNode = node;
        if (failedNode == null) {
            if (!primaryFailover(e)) {
                throw e;
            }
            return;
        }
        if (failedNode != null && READ_ONLY_REFUSAL.equals(e.getSQLState()) && !executed && bindings != null) {
            refusedAsWrite(e);
            return;
        }
        if (failedNode == null || !isConnectionError(e, delegate)) {
            throw e;
        }
        routing.router().replicas().markDown(failedNode, e);
        if (executed || bindings == null) {
            throw e;
        }
        try {
            if (!routing.retry(this, failedNode)) {
                throw e;
            }
        }
        catch (SQLException retryFailure) {
            if (retryFailure != e) {
                e.addSuppressed(retryFailure);
            }
            throw e;
        }
    }

    /** The replica refused the statement as a write: the replica is fine, the statement belongs on the primary. */
    private void refusedAsWrite(SQLException e) throws SQLException {
        try {
            if (!routing.retryOnPrimary(this)) {
                throw e;
            }
        }
        catch (SQLException retryFailure) {
            if (retryFailure != e) {
                e.addSuppressed(retryFailure);
            }
            throw e;
        }
    }

    /**
     * After a retry failed too: a read that waits for a failover of the primary tries again (until its
     * deadline); otherwise that replica is ejected as well and the error thrown.
     */
    private void failedAgain(SQLException e) throws SQLException {
        if (node == null && failoverDeadline != 0 && primaryFailover(e)) {
            return;
        }
        if (node != null && isConnectionError(e, delegate)) {
            routing.router().replicas().markDown(node, e);
        }
        throw e;
    }

    /**
     * The primary connection broke under this autocommit read before any result (a failover; the error is
     * classified as a replica's is): the read moves to a server that can serve it, waiting for one until the
     * failover deadline. False when it cannot.
     */
    private boolean primaryFailover(SQLException e) throws SQLException {
        if (executed || bindings == null || !isConnectionError(e, delegate)) {
            return false;
        }
        if (failoverDeadline == 0) {
            failoverDeadline = routing.failoverDeadline();
        }
        try {
            return routing.retryAfterPrimaryFailure(this, e, failoverDeadline);
        }
        catch (SQLException retryFailure) {
            if (retryFailure != e) {
                e.addSuppressed(retryFailure);
            }
            throw e;
        }
    }

    /** Moves this statement to {@code connection} ({@code replica} null for the primary) and replays its bindings. */
    @Override
    public void retarget(Connection connection, ReplicaNode replica) throws SQLException {
        PreparedStatement next = shape.prepare(connection, sql);
        try {
            for (int i = 0; i < bound; i++) {
                bindings[i].apply(next);
            }
        }
        catch (SQLException | RuntimeException e) {
            next.close();
            throw e;
        }
        PreparedStatement old = delegate;
        delegate = next;
        if (failoverDeadline == 0) {
            bindings = null; // one retry; a read waiting for a failover keeps them to try again until its deadline
        }
        if (counted && node != null) {
            node.inFlightCounter().decrementAndGet();
        }
        node = replica;
        counted = false;
        starting();
        try {
            old.close();
        }
        catch (SQLException ignored) {
            // the old statement's connection is broken
        }
    }

    @Override
    public boolean anyReplica() {
        return anyReplica;
    }

    @Override
    public String sql() {
        return sql;
    }

    /**
     * Whether the error means the connection is unusable: a connection error
     * ({@link RoutingConnection#isConnectionError}), or a connection that is closed now.
     */
    static boolean isConnectionError(SQLException e, java.sql.Statement statement) {
        if (RoutingConnection.isConnectionError(e)) {
            return true;
        }
        try {
            return statement.getConnection().isClosed();
        }
        catch (SQLException | RuntimeException ignored) {
            return false;
        }
    }
}
