package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.stats.QueryShapes;

/**
 * A prepared (or callable) statement whose executions may move: one prepared on a replica, or an autocommit read
 * prepared on the primary. It keeps the replica's in-flight count (from its first execution to its close, or until its
 * connection closes or its driver statement closes with its results: {@link InFlightCounts}), and its
 * {@code executeQuery()} and {@code execute()} go through the connection's {@link Failover}, which decides what a
 * failure leads to; to move, the statement is prepared again there ({@link #prepareAgain}) and its recorded
 * parameters and options are replayed (the last value set per parameter and option). A failed execution is retried
 * elsewhere, its first or a later one, unless it reads a stream parameter; a read routed again after a
 * write on its connection moves with its parameters unless a stream parameter an earlier execution read is still set.
 * A replica read the stale-read audit samples is checked once its results are closed ({@link ReadAudit.Sample}): its
 * result set closed, the next execution, or the statement's close.
 */
abstract class RoutedPreparedStatement extends ForwardingPreparedStatement
        implements Failover.Door<PreparedStatement>, ResultsOwner {

    private static final Failover.Execution<PreparedStatement, ResultSet> EXECUTE_QUERY = PreparedStatement::executeQuery;
    private static final Failover.Execution<PreparedStatement, Boolean> EXECUTE = PreparedStatement::execute;

    private final ConnectionRouting routing;
    private final Failover failover;
    String sql;
    private QueryShapes.Shape shape;
    /** How it was routed (again, after a write or a transaction boundary on the connection: {@link #routeAgain}). */
    private StatementRoute route;
    /** The connection's count of changes (writes, transaction boundaries) when it was routed. */
    private long changesAtRoute;
    /** The unit's count of changes (its writes in this JVM) when it was routed. */
    private long unitChangesAtRoute;
    /** The replica the delegate runs on now, or null on the primary. */
    private ReplicaNode node;
    private boolean executed;
    /**
     * Whether it is a write by kind (a write, a locking read, DDL, a call, updatable results): it meets the read-only
     * context it executes in ({@link ConnectionRouting#writeExecuting}).
     */
    private boolean writeLike;
    /** The last execution on a replica, when the stale-read audit sampled it, until its results are closed. */
    private ReadAudit.Sample audit;
    /** Whether it holds its replica's in-flight count ({@link InFlightCounts}). */
    private boolean counted;
    /**
     * What the read must see, while its driver statement carries the check of it in the same message
     * ({@link io.rwsplit.internal.consistency.CausalReads#checkedInRead(String)}): each execution reads first what the
     * standby replayed, and the read's rows count only when that covers this. Null once the statement runs without it.
     */
    private io.rwsplit.position.ConsistencyToken check;
    /** The execution of a checked read, made at its first execution (it keeps nothing of its own: reused). */
    private CheckedRead checkedRead;
    /** Whether a checked read's route is still to be recorded: where its first check leads it. */
    private boolean recordPending;
    /** Whether {@code closeOnCompletion()} was called: only then may its driver statement close with its results. */
    private boolean closesOnCompletion;

    /** A statement body of {@code routing}'s connections, opened for each statement ({@link #open}). */
    RoutedPreparedStatement(ConnectionRouting routing) {
        this.routing = routing;
        this.failover = routing.failover();
    }

    /**
     * Makes this body the statement of {@code delegate}, prepared for the connection {@code routing} serves now.
     *
     * @param route     how it was routed (the replica it is prepared on, or the primary)
     * @param retryable whether it records its parameters to run again elsewhere (an autocommit read)
     * @param check     what the read must be checked against in its own round trip (its driver statement carries the
     *                  check), or null
     */
    final void open(StatementRoute route, PreparedStatement delegate, ClassificationCache.Entry classified,
                    boolean retryable, io.rwsplit.position.ConsistencyToken check) {
        open(routing.owner(), delegate, retryable);
        this.check = check;
        this.recordPending = check != null;
        this.changesAtRoute = routing.changes();
        this.unitChangesAtRoute = routing.unitChangesAtRoute();
        // A reused body is long-lived: with G1 each reference written into it costs a memory barrier, so the shared
        // values its last statement left (a route, a replica, a cached SQL text and shape) are written only when
        // they change, which they seldom do from one statement to the next of a connection.
        if (this.route != route) {
            this.route = route;
        }
        if (this.node != route.node()) {
            this.node = route.node();
        }
        if (this.sql != classified.sql()) {
            this.sql = classified.sql();
        }
        if (this.shape != classified.shape()) {
            this.shape = classified.shape();
        }
        this.executed = false;
        this.writeLike = classified.kind().writeLike() || route.reason() == io.rwsplit.RouteReason.WRITE;
    }

    /**
     * After {@link #close()}: nothing of the statement stays reachable but shared, long-lived values (its route,
     * replica, SQL text and shape, which {@link #open} overwrites), and the body can be opened again.
     */
    final void forgetStatement() {
        forget();
        check = null;
        recordPending = false;
        changesAtRoute = 0;
        unitChangesAtRoute = 0;
        executed = false;
        writeLike = false;
        audit = null;
        counted = false;
        closesOnCompletion = false;
    }

    /** Prepares this statement's SQL again on {@code connection}, with the overload that made it. */
    abstract PreparedStatement prepareAgain(Connection connection) throws SQLException;

    /** The delegate was replaced by {@link #retarget} (a subclass that keeps a typed view of it updates that). */
    void retargeted() {
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        ResultSet results = run(EXECUTE_QUERY);
        return results(audit == null ? results : audit.handedOut(results));
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        ResultSet results = delegate.getResultSet();
        return results(audit == null ? results : audit.handedOut(results));
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        boolean more = delegate.getMoreResults();
        if (!more) {
            auditPending();   // the current result set is closed, and a replica read has no other
            closedOnCompletion();
        }
        return more;
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        boolean more = delegate.getMoreResults(current);
        if (!more && current != KEEP_CURRENT_RESULT) {
            auditPending();
            closedOnCompletion();
        }
        return more;
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
     * Its results are closed: a driver statement that closed itself with them ({@code closeOnCompletion}: JDBC takes the
     * statement for closed, and the application need not close it) gives back its replica's in-flight count.
     */
    private void closedOnCompletion() {
        if (!counted || !closesOnCompletion) {
            return;   // no driver call: the other drivers' isClosed() may take a lock (MySQL Connector/J)
        }
        try {
            if (!delegate.isClosed()) {
                return;
            }
        }
        catch (SQLException e) {
            return;   // its close, or its connection's, gives the count back
        }
        counted = false;
        routing.inFlight().release(node, (RoutingConnection) owner);
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        super.closeOnCompletion();
        closesOnCompletion = true;
    }

    @Override
    public boolean execute() throws SQLException {
        return run(EXECUTE);
    }

    /** One execution through the failover (routed again first when what it was routed for changed). */
    private <T> T run(Failover.Execution<PreparedStatement, T> execution) throws SQLException {
        ((RoutingConnection) owner).checkOpen();   // its connection's parts may serve another session by now
        closedWithItsResults();
        auditPending();   // an earlier execution's results are closed once this one runs, before any move
        if (!writing() && (routing.changes() != changesAtRoute || executed && movedSinceRoute())) {
            routeAgain();
        }
        if (check != null && mayHaveUnreadStream()) {
            settleCheck(false);   // a stream cannot be sent twice: the read is made sure of first, and runs without the check
        }
        streamsRead();   // from here on, a stream parameter set before is (being) read
        starting();
        ReadAudit.Sample sample = node != null ? routing.auditSample() : null;
        try {
            T result = check != null ? runChecked(execution) : failover.execute(this, execution);
            if (sample != null && node != null) {
                audit = sample.ran(delegate, shape);   // where it ran, after any move
            }
            return result;
        }
        finally {
            executed = true;
        }
    }

    /**
     * A query or {@code execute()} of a read checked in its own round trip: the check and the read in one message; when
     * the standby had not replayed what the read must see (about one such read in ten on the test cluster under write
     * load: most find the write replayed), the read's rows are dropped and it runs again once its standby has replayed
     * it, or on the primary ({@link #settleCheck}).
     */
    @SuppressWarnings("unchecked")
    private <T> T runChecked(Failover.Execution<PreparedStatement, T> execution) throws SQLException {
        if (checkedRead == null) {
            checkedRead = new CheckedRead();
        }
        boolean covered;
        try {
            covered = failover.execute(this, checkedRead);
        }
        catch (SQLException e) {
            if (check == null || routing.tx().inTransaction() || !mayBeTheStandbysLag(e)) {
                throw e;   // ran without the check (moved), or in a transaction, which nothing runs again in (Failover)
            }
            // the check's answer is lost with the read's error, which may be the standby's lag: a read that names what
            // the standby has not replayed (a table or column created since: 42P01, 42703) fails there. The read is
            // made sure of as after a failed check and runs again once; an error of its own comes again there
            if (Router.log.isDebugEnabled()) {
                Router.log.debug("hibernate-rwsplit [{}]: a read checked on replica {} failed there (SQLState {}): it runs"
                        + " again once the replica has replayed what it must see, or on the primary", routing.router().label(),
                        node == null ? "?" : node.name(), e.getSQLState());
            }
            try {
                settleCheckFirst();
                return failover.execute(this, execution);
            }
            catch (SQLException again) {
                if (again != e) {
                    again.addSuppressed(e);
                }
                throw again;
            }
        }
        if (check != null && !covered) {
            settleCheck(true);   // the check was the question: the read waits for the standby's poll, not asking again
            return failover.execute(this, execution);
        }
        if (recordPending && check != null) {
            recordPending = false;
            routing.served(route, shape, sql);   // where the read was served: the replica its check passed on
        }
        // the driver statement stands at the read's own results (or, moved after a failure, ran without the check)
        return execution == EXECUTE_QUERY ? (T) delegate.getResultSet() : (T) Boolean.TRUE;
    }

    /**
     * Whether a checked read's error on its standby may come from what the standby had not replayed yet, so that the
     * read must run again once made sure of: any error but a broken connection (the failover's), a cancel or timeout
     * (its caller's), a refusal as a write and a syntax error (the statement's own), a program limit, and a lost write
     * (the module's answer to the read).
     */
    private boolean mayBeTheStandbysLag(SQLException e) {
        String state = e.getSQLState();
        return !(e instanceof java.sql.SQLTimeoutException) && !(e instanceof io.rwsplit.LostWriteException)
                && !"57014".equals(state) && !"42601".equals(state) && (state == null || !state.startsWith("54"))
                && !ConnectionErrors.refusedAsWrite(e) && !ConnectionErrors.isConnectionError(e, delegate);
    }

    /**
     * Something that cannot carry the check (metadata before the execution, a batch, an update count asked of a read):
     * the read is made sure of first, and runs without the check.
     */
    private void settleCheckFirst() throws SQLException {
        if (check != null) {
            settleCheck(false);
        }
    }

    /**
     * An execution of a statement that may write (a write by route, a call or a locking read by kind): the connection is
     * told first, and may refuse it or move its transaction. Whether it was one.
     */
    private boolean writing() throws SQLException {
        if (!route.writes() && !writeLike) {
            return false;
        }
        routing.writeExecuting(route.writes(), writeLike);
        return true;
    }

    /**
     * An execution through a door that runs where the statement is (an update count, a batch): its connection must be
     * open, since its parts, the driver statement's physical connection included, may serve another session by now.
     */
    private void executingHere(boolean settle) throws SQLException {
        ((RoutingConnection) owner).checkOpen();
        closedWithItsResults();
        if (settle) {
            settleCheckFirst();
        }
        writing();
    }

    /**
     * Set to close on completion, once its driver statement closed with its results the statement is closed, as JDBC
     * says: an execution is refused, even one that would be routed again elsewhere after a write (and prepared there
     * again). Asks the driver only then.
     */
    private void closedWithItsResults() throws SQLException {
        if (closesOnCompletion && delegate.isClosed()) {
            throw new SQLException("hibernate-rwsplit: statement is closed (closeOnCompletion, its results closed)",
                    "HY010");
        }
    }

    @Override
    public int executeUpdate() throws SQLException {
        executingHere(true);
        return super.executeUpdate();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        executingHere(true);
        return super.executeLargeUpdate();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        executingHere(false);   // addBatch settled the check
        return super.executeBatch();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        executingHere(false);   // addBatch settled the check
        return super.executeLargeBatch();
    }

    /**
     * The check of a read cannot be used, or found the standby without what the read must see: the read waits for its
     * standby as an unchecked one does and runs there without the check, or moves to the primary; either way its driver
     * statement is prepared again without it and its parameters replayed. {@code checked}: the check ran and found the
     * standby without it.
     */
    private void settleCheck(boolean checked) throws SQLException {
        ((RoutingConnection) owner).checkOpen();   // settling routes through the parts, which may serve another session
        StatementRoute next = routing.settleCheck(route, check, shape, sql, !recordPending, checked);
        recordPending = false;
        retarget(routing.connection(next), next.node());   // and the check is gone
        route = next;
    }

    /** The read's own result columns: a checked read is made sure of first (its driver statement's first are the check's). */
    @Override
    public java.sql.ResultSetMetaData getMetaData() throws SQLException {
        settleCheckFirst();
        return delegate.getMetaData();
    }

    /**
     * One execution of a checked read on its driver statement: the check's answer, then the read's results, which stay
     * current; whether they may be used. A statement that runs without the check any more (moved by the failover) just
     * executes.
     */
    private final class CheckedRead implements Failover.Execution<PreparedStatement, Boolean> {
        @Override
        public Boolean run(PreparedStatement statement) throws SQLException {
            io.rwsplit.position.ConsistencyToken need = check;
            ReplicaNode at = node;
            if (need == null || at == null) {
                statement.execute();
                return Boolean.TRUE;
            }
            io.rwsplit.internal.consistency.CausalReads causal = routing.causal();
            long epoch = causal.epoch(at.index());
            String replayed;
            String isolation;
            if (!statement.execute()) {
                throw new SQLException("hibernate-rwsplit: the check of a replica read gave no answer", "XX000");
            }
            try (ResultSet answer = statement.getResultSet()) {
                if (!answer.next()) {
                    throw new SQLException("hibernate-rwsplit: the check of a replica read gave no row", "XX000");
                }
                replayed = answer.getString(1);
                isolation = answer.getString(2);
            }
            if (!statement.getMoreResults()) {
                throw new SQLException("hibernate-rwsplit: a checked replica read gave no results of its own", "XX000");
            }
            return causal.checkedInRead(at.index(), replayed, isolation, epoch, need);
        }
    }

    /** Audits the last sampled execution on the replica connection it ran on: its results are closed now. */
    private void auditPending() {
        ReadAudit.Sample sample = audit;
        if (sample != null) {
            audit = null;
            sample.resultsClosed();
        }
    }

    /**
     * Whether a read executed again must be routed again for what changed outside its connection since it was routed:
     * a write of the unit committed in this JVM (unit-wide reads must see it), or, for a read a staleness bound sent to
     * its replica, the replica's lag (it may have grown past the bound).
     */
    private boolean movedSinceRoute() {
        return routing.unitChanges() != unitChangesAtRoute
                || node != null && route.reason() == io.rwsplit.RouteReason.BOUNDED_STALENESS_REPLICA;
    }

    /**
     * A write ran on the connection since this read was routed (a prepared read executed after the connection's
     * write, as one server would answer it), or a transaction began or ended there, or, when it executes again, what
     * changed elsewhere ({@link #movedSinceRoute}): it is routed as a new read would
     * be, and moves when that leads elsewhere (to the primary, or to a replica that has the write), its parameters
     * replayed. One on a replica whose parameters cannot be replayed (a stream parameter an earlier execution read and
     * that was not set again, a batch) fails with {@code 0A000} rather than answer there; one on the primary stays.
     */
    private void routeAgain() throws SQLException {
        StatementRoute next = routing.route(sql);
        changesAtRoute = routing.changes();
        unitChangesAtRoute = routing.unitChangesAtRoute();
        if (next.node() == node || !canReplay()) {
            if (next.node() == node) {
                route = next;
            }
            else if (node != null) {
                // staying would answer without what it must see now (a write, its replica's lag): it fails instead
                throw new SQLException("hibernate-rwsplit: a read prepared on replica '" + node.name() + "' must now"
                        + " run " + (next.node() == null ? "on the primary" : "on replica '" + next.node().name() + "'")
                        + " (a write, a transaction begun or ended, or its replica's lag since it was routed) and cannot"
                        + " move there: its parameters cannot be set again (a stream parameter was read, or a batch was"
                        + " added); prepare it again", "0A000");
            }
            return;
        }
        retarget(routing.connection(next), next.node());
        route = next;
    }

    @Override
    public void addBatch() throws SQLException {
        settleCheckFirst();   // a batch runs without the check (and a batch of reads fails as it would anyway)
        unreplayable();
        delegate.addBatch();
    }

    @Override
    public void clearParameters() throws SQLException {
        delegate.clearParameters();
        parametersCleared();
    }

    @Override
    public void close() throws SQLException {
        ReadAudit.Sample pending = audit;
        audit = null;
        if (counted) {
            counted = false;
            if (node != null) {
                routing.inFlight().release(node, (RoutingConnection) owner);
            }
        }
        try {
            delegate.close();
        }
        finally {
            if (pending != null) {
                pending.resultsClosed();   // the driver statement and its results are closed; its connection is not
            }
        }
    }

    private void starting() {
        if (!counted && node != null && routing.router().replicas().countsInFlight()) {
            counted = routing.inFlight().hold(node, (RoutingConnection) owner);
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
    public final QueryShapes.Shape shape() {
        return shape;
    }

    @Override
    public final boolean replayable() {
        return canReplay();
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
            replay(next);
        }
        catch (SQLException | RuntimeException e) {
            next.close();
            throw e;
        }
        PreparedStatement old = delegate;
        delegate = next;
        check = null;   // prepared again from the read's own SQL: without the check
        retargeted();
        if (counted && node != null) {
            routing.inFlight().release(node, (RoutingConnection) owner);
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
