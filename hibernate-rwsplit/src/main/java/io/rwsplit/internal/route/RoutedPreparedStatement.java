package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import io.rwsplit.internal.replica.ReplicaNode;

/**
 * A prepared (or callable) statement whose executions may move: one prepared on a replica, or an autocommit read
 * prepared on the primary. It keeps the replica's in-flight count (from its first execution to its close), and its
 * {@code executeQuery()} and {@code execute()} go through the connection's {@link Failover}, which decides what a
 * failure leads to; to move, the statement is prepared again there ({@link #prepareAgain}) and its recorded
 * parameters and options are replayed. After a first execution, or with a stream parameter, it is not replayed.
 */
abstract class RoutedPreparedStatement extends ForwardingPreparedStatement implements Failover.Door<PreparedStatement> {

    private static final Failover.Execution<PreparedStatement, ResultSet> EXECUTE_QUERY = PreparedStatement::executeQuery;
    private static final Failover.Execution<PreparedStatement, Boolean> EXECUTE = PreparedStatement::execute;

    private final ConnectionRouting routing;
    private final Failover failover;
    final String sql;
    /** How it was routed (again, when a write ran on the connection since: {@link #routeAgain}). */
    private StatementRoute route;
    /** The connection's count of writes when it was routed. */
    private long writesAtRoute;
    /** The replica the delegate runs on now, or null on the primary. */
    private ReplicaNode node;
    private boolean executed;
    /** The last execution on a replica, when the stale-read audit sampled it: audited at close or at the next. */
    private ReadAudit.Sample audit;
    private boolean counted;

    /**
     * @param route     how it was routed (the replica it is prepared on, or the primary)
     * @param retryable whether it records its parameters to run again elsewhere (an autocommit read)
     */
    RoutedPreparedStatement(ConnectionRouting routing, StatementRoute route, PreparedStatement delegate, String sql,
                            boolean retryable) {
        super(routing.owner(), delegate, retryable);
        this.routing = routing;
        this.writesAtRoute = routing.writes();
        this.failover = routing.failover();
        this.route = route;
        this.node = route.node();
        this.sql = sql;
    }

    /** Prepares this statement's SQL again on {@code connection}, with the overload that made it. */
    abstract PreparedStatement prepareAgain(Connection connection) throws SQLException;

    /** The delegate was replaced by {@link #retarget} (a subclass that keeps a typed view of it updates that). */
    void retargeted() {
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        return results(run(EXECUTE_QUERY));
    }

    @Override
    public boolean execute() throws SQLException {
        return run(EXECUTE);
    }

    /** One execution through the failover; after it (whatever its outcome) the statement is not replayed again. */
    private <T> T run(Failover.Execution<PreparedStatement, T> execution) throws SQLException {
        if (route.writes()) {
            routing.writeExecuting();
        }
        else if (routing.writes() != writesAtRoute) {
            routeAgain();
        }
        starting();
        auditPending();   // an earlier execution's results are closed once this one runs
        ReadAudit.Sample sample = node != null ? routing.auditSample() : null;
        try {
            T result = failover.execute(this, execution);
            audit = node != null ? sample : null;   // where it ran, after any move
            return result;
        }
        finally {
            executed = true;
        }
    }

    /** Audits the last sampled execution on its replica connection, once its results are closed. */
    private void auditPending() {
        ReadAudit.Sample sample = audit;
        if (sample != null) {
            audit = null;
            try {
                routing.audit(delegate.getConnection(), sample, sql);
            }
            catch (SQLException | RuntimeException e) {
                // the audit never fails a statement
            }
        }
    }

    /**
     * A write ran on the connection since this read was routed (a prepared read executed after the connection's
     * write, as one server would answer it): it is routed as a new read would be, and moves when that leads elsewhere
     * (to the primary, or to a replica that has the write), its parameters replayed. One whose parameters cannot be
     * replayed (a stream, a batch, a very long history) stays where it is.
     */
    private void routeAgain() throws SQLException {
        StatementRoute next = routing.route(sql);
        writesAtRoute = routing.writes();
        if (next.node() == node || bindings == null) {
            if (next.node() == node) {
                route = next;
            }
            return;
        }
        retarget(routing.connection(next), next.node());
        route = next;
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
        if (node != null) {
            auditPending();
        }
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

    @Override
    public final PreparedStatement physical() {
        return delegate;
    }

    @Override
    public final ReplicaNode node() {
        return node;
    }

    @Override
    public final String sql() {
        return sql;
    }

    @Override
    public final boolean replayable() {
        return bindings != null && !executed;
    }

    @Override
    public final StatementRoute route() {
        return route;
    }

    /** Moves this statement to {@code connection} ({@code replica} null for the primary) and replays its bindings. */
    @Override
    public final void retarget(Connection connection, ReplicaNode replica) throws SQLException {
        PreparedStatement next = prepareAgain(connection);
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
        retargeted();
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
}
