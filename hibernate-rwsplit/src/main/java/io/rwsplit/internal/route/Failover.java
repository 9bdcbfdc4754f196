package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.LockSupport;

import io.rwsplit.RouteReason;
import io.rwsplit.Target;
import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.health.ServerRole;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.stats.QueryShapes;
import io.rwsplit.spi.Clock;

/**
 * The one place that decides what happens after an execution failed, for every statement door
 * ({@code createStatement}, {@code prepareStatement}, {@code prepareCall}) and every execute method that may move:
 * <ul>
 * <li>a replica's connection error takes that replica out of rotation; an autocommit read that failed that way
 *     before handing out any result runs once more on another healthy replica (a read any replica may serve), else
 *     on the primary (unless {@code fallback=fail});</li>
 * <li>an autocommit statement a replica refused as a write (SQLState 25006) runs once on the primary, where it
 *     belongs, and counts as a write for read-your-writes; the replica stays in rotation;</li>
 * <li>an autocommit read whose primary connection broke before any result (a failover) runs again on a replica
 *     that meets its consistency requirement, or on the primary as soon as a writable server answers its URL,
 *     trying until the failover deadline ({@link Router#failoverWaitNanos()}).</li>
 * </ul>
 * One more case is its statement's, because only it knows the check: an autocommit read checked on a PostgreSQL standby
 * in the same message ({@link RoutedPreparedStatement}) whose read failed there with an error that may come from what
 * the standby had not replayed (not one of the above, nor a cancel, a timeout, a syntax error, a program limit or a lost
 * write) is made sure of (it waits, or goes to the primary) and runs once more.
 * Nothing else runs again: not inside a transaction, not a statement that holds a parameter that cannot be set twice
 * (a stream an execution read), never a write, a lock or an unclassified statement after a connection error (an
 * autocommit write that lost its connection may have committed: only the caller can know). A failure of the move
 * itself is added to the original error as suppressed. One per logical connection; used by one thread at a time.
 */
final class Failover {

    /** A statement wrapper whose executions go through {@link #execute}: what the failover needs to know and do. */
    interface Door<S extends Statement> {
        /** The driver statement executions run on now. */
        S physical();

        /** The replica it runs on, or {@code null} on the primary. */
        ReplicaNode node();

        String sql();

        /** The counters of the query shape of {@link #sql()}. */
        QueryShapes.Shape shape();

        /** Whether an execution may run again elsewhere: its parameters recorded, no stream read. */
        boolean replayable();

        /** How it was routed: whether it is an autocommit read, gated, served by any replica. */
        StatementRoute route();

        /** Moves it to {@code connection} ({@code replica} null for the primary), prepared as before and replayed. */
        void retarget(Connection connection, ReplicaNode replica) throws SQLException;
    }

    /** One execution on a door's driver statement. */
    @FunctionalInterface
    interface Execution<S extends Statement, T> {
        T run(S statement) throws SQLException;
    }

    /** Whom the connection serves: its facade ({@link Served#owner}) and session. */
    private final Served served;
    private final Router router;
    private final TransactionTracker tx;
    private final PhysicalConnections physical;
    private final ReplicaConnection replica;
    private final ConsistencyGate gate;
    private final ConnectionSession connectionSession;

    Failover(Served served, Router router, TransactionTracker tx,
             PhysicalConnections physical, ConsistencyGate gate, ConnectionSession connectionSession) {
        this.served = served;
        this.router = router;
        this.tx = tx;
        this.physical = physical;
        this.replica = physical.replica();
        this.gate = gate;
        this.connectionSession = connectionSession;
    }

    /** Runs {@code execution} on {@code door}'s statement, moving it after a failure as the class comment says. */
    <S extends Statement, T> T execute(Door<S> door, Execution<? super S, T> execution) throws SQLException {
        try {
            return timed(door, execution);
        }
        catch (SQLException e) {
            long deadline = afterFirstFailure(door, e);
            while (true) {
                try {
                    return timed(door, execution);
                }
                catch (SQLException again) {
                    afterAnotherFailure(door, again, deadline);
                }
            }
        }
    }

    /**
     * Runs {@code execution} once on {@code door}'s statement; when it succeeds, it counts for the query shape, with its
     * time when the shape's sample times it ({@link QueryShapes.Shape#timesNext}: the clock is read only then).
     */
    private <S extends Statement, T> T timed(Door<S> door, Execution<? super S, T> execution) throws SQLException {
        if (door.node() == null) {
            physical.checkPrimaryNotMoved();   // what the driver would run on a replica fails as on a broken connection
        }
        QueryShapes.Shape shape = door.shape();
        int weight = shape.timesNext();
        if (weight == 0) {
            T result = execution.run(door.physical());
            shape.executed(door.node() != null);
            return result;
        }
        long start = router.nanoTime();
        T result = execution.run(door.physical());
        shape.executed(door.node() != null, router.nanoTime() - start, weight);
        return result;
    }

    /** The first failure of an execution: moves the door, or throws {@code e}. The failover deadline, or 0. */
    private long afterFirstFailure(Door<?> door, SQLException e) throws SQLException {
        ReplicaNode node = door.node();
        boolean broken = ConnectionErrors.isConnectionError(e, door.physical());
        if (node != null) {
            if (!broken && ConnectionErrors.refusedAsWrite(e)) {
                if (tx.inTransaction() && tx.kind() == TransactionTracker.Kind.READ_ONLY_PREFERRED) {
                    preferredReadOnlyToPrimary(door, e);
                    return 0;
                }
                if (!door.replayable() || !moved(e, () -> toPrimaryAsWrite(door))) {
                    throw e;
                }
                return 0;
            }
            if (!broken) {
                throw e;
            }
            router.replicas().markDown(node, e);
            if (!door.replayable() || !moved(e, () -> toAnotherServer(door, node))) {
                throw e;
            }
            return 0;
        }
        if (!broken || !door.route().autocommitRead() || !door.replayable()) {
            throw e;
        }
        long deadline = deadline();
        if (!moved(e, () -> afterPrimaryFailure(door, e, deadline))) {
            throw e;
        }
        return deadline;
    }

    /**
     * A later failure of the same execution (after a move): a read waiting for a failover of the primary tries again
     * until its deadline; a replica's connection error takes that replica out of rotation too; then {@code e} is thrown.
     */
    private void afterAnotherFailure(Door<?> door, SQLException e, long deadline) throws SQLException {
        boolean broken = ConnectionErrors.isConnectionError(e, door.physical());
        ReplicaNode node = door.node();
        if (node != null) {
            if (broken) {
                router.replicas().markDown(node, e);
            }
            throw e;
        }
        if (deadline == 0 || !broken || !moved(e, () -> afterPrimaryFailure(door, e, deadline))) {
            throw e;
        }
    }

    /** A move of a door to another server: false when it must not move. */
    @FunctionalInterface
    private interface Move {
        boolean move() throws SQLException;
    }

    /** Runs {@code move}; a failure of the move itself is suppressed in {@code e}, which is then thrown. */
    private static boolean moved(SQLException e, Move move) throws SQLException {
        try {
            return move.move();
        }
        catch (io.rwsplit.LostWriteException lost) {
            // the read would answer older than a write the application committed: that is what it is told
            lost.addSuppressed(e);
            throw lost;
        }
        catch (SQLException moveFailure) {
            throw ConnectionErrors.withSuppressed(e, moveFailure);
        }
    }

    /** Whether a statement of this connection may run again elsewhere now: outside a transaction, connection open. */
    private boolean movable() {
        return !tx.inTransaction() && !served.owner.isClosed();
    }

    /**
     * An autocommit read whose replica failed before returning results: to another healthy replica, else to the
     * primary (unless {@code fallback=fail}); a read whose replica was chosen for a consistency guarantee goes to the
     * primary.
     */
    private boolean toAnotherServer(Door<?> door, ReplicaNode failed) throws SQLException {
        if (!movable()) {
            return false;
        }
        replica.drop(failed);
        replica.lookAgain();   // a replica back since this statement was routed may serve it
        io.rwsplit.internal.config.ShapeRule rule = ruleOf(door.route(), door.sql());
        replica.tier(rule == null ? 0 : rule.tier());   // its own rule's, not the statement's routed last
        Connection c = door.route().anyReplica() ? replica.serve(false) : null;
        if (c != null) {
            StatementRoute retry = router.replicaRoute(replica.node(), RouteReason.RETRY_REPLICA);
            router.served(served.session, retry, door.shape(), door.sql());
            door.retarget(c, retry.node());
            return true;
        }
        if (!router.fallsBackToPrimary()) {
            return false;
        }
        router.served(served.session, router.primaryRoute(RouteReason.RETRY_PRIMARY), door.shape(), door.sql());
        door.retarget(physical.primary(), null);
        return true;
    }

    /** An autocommit statement a replica refused as a write: to the primary ({@link RouteReason#REPLICA_REFUSED_WRITE}). */
    private boolean toPrimaryAsWrite(Door<?> door) throws SQLException {
        if (!movable()) {
            return false;
        }
        refusedWriteToPrimary(door);
        return true;
    }

    /** A statement a replica refused as a write runs again on the primary, counted and recorded as a write. */
    private void refusedWriteToPrimary(Door<?> door) throws SQLException {
        router.served(served.session, router.primaryRoute(RouteReason.REPLICA_REFUSED_WRITE), door.shape(), door.sql());
        tx.wrote(); // it was refused as a write: read-your-writes must cover it
        door.retarget(physical.primary(), null);
    }

    /**
     * A statement of a read-only-by-preference transaction that its replica refused as a write (a function that writes,
     * {@code SELECT ... FOR UPDATE} a standby cannot lock): as a write in such a transaction does, it moves the rest of
     * the transaction to the primary, and runs again there. Only at READ COMMITTED (or below), where every statement
     * takes a snapshot of its own anyway; at REPEATABLE READ or SERIALIZABLE the move would change the transaction's
     * snapshot half way, so the transaction fails with an error that says so (SQLState 25006).
     */
    private void preferredReadOnlyToPrimary(Door<?> door, SQLException refused) throws SQLException {
        // the replica's transaction is aborted now (PostgreSQL): the isolation is the one set, else the primary's
        int isolation = physical.isolation() >= 0 ? physical.isolation() : physical.primary().getTransactionIsolation();
        if (isolation > java.sql.Connection.TRANSACTION_READ_COMMITTED) {
            SQLException e = new SQLException("hibernate-rwsplit: the replica refused a statement of this read-only-by-"
                    + "preference transaction as a write; at " + (isolation == java.sql.Connection.TRANSACTION_SERIALIZABLE
                    ? "SERIALIZABLE" : "REPEATABLE READ") + " it cannot move to the primary without changing the"
                    + " transaction's snapshot, so the transaction fails: run such statements on the primary"
                    + " (RwSplit.onPrimary, a /* rwsplit:primary */ comment) or the transaction at READ COMMITTED", "25006",
                    refused);
            throw e;
        }
        if (!door.replayable() || served.owner.isClosed()) {
            throw refused;
        }
        tx.writeInPreferredReadOnly();   // the rest of the transaction runs on the primary
        try {
            refusedWriteToPrimary(door);
        }
        catch (SQLException e) {
            e.addSuppressed(refused);
            throw e;
        }
    }

    /**
     * An autocommit read whose primary connection broke before any result: to a server that can serve it, waiting
     * for one until {@code deadline} ({@link #awaitFailover}). False when it must not move (the primary holds session
     * state of this connection).
     */
    private boolean afterPrimaryFailure(Door<?> door, SQLException failure, long deadline) throws SQLException {
        if (!movable() || connectionSession.pinned()) {
            return false;
        }
        StatementRoute served = awaitFailover(door.route(), door.shape(), door.sql(), failure, deadline);
        door.retarget(physical.connection(served), served.node());
        return true;
    }

    /**
     * The rule by query shape that gave the read of {@code sql} its level or tier when it was routed ({@code route}), or
     * null: rules apply to gated reads only. Looked up again through the classification cache (failover path only).
     */
    private io.rwsplit.internal.config.ShapeRule ruleOf(StatementRoute route, String sql) {
        return route.gated() && sql != null ? router.classifications().classify(sql).rule() : null;
    }

    /** Until when an autocommit read that lost the primary now may wait for it: see {@link Router#failoverWaitNanos()}. */
    long deadline() {
        return router.replicas().clock().nanoTime() + router.failoverWaitNanos();
    }

    /**
     * An autocommit read ({@code route}) lost the primary (it could not connect, or the connection broke before any
     * result): it is served by a replica that meets the read's consistency requirement (when its read was gated) as
     * soon as one does, else by the primary as soon as it answers again (the primary URL may lead to a new server by
     * then), trying every probe interval until {@code deadline}, or until the thread is interrupted (the interrupt is
     * kept); then {@code failure} is thrown. Returns where it is served (recorded; its connection is open). Writes
     * never come here: whether a write that lost its connection committed is unknown, so it is never sent again.
     */
    StatementRoute awaitFailover(StatementRoute route, QueryShapes.Shape shape, String sql, SQLException failure,
                                 long deadline) throws SQLException {
        physical.dropPrimary();
        router.primaryConnectionFailed();
        Clock clock = router.replicas().clock();
        // the level and tier a rule by query shape gives the read, as when it was routed
        io.rwsplit.internal.config.ShapeRule rule = ruleOf(route, sql);
        io.rwsplit.Consistency level = rule == null ? null : rule.consistency();
        while (true) {
            replica.lookAgain();   // a replica may be back since the last try
            replica.tier(rule == null ? 0 : rule.tier());   // its own rule's, not the statement's routed last
            // before the gate: a monitor's look at a new primary that lands after the gate's answer is not in it
            boolean suspectAtGate = router.primarySuspect();
            // the gate is asked as for any gated read; only where it sends the read matters here
            if (route.gated() && gate.read(RouteReason.RETRY_REPLICA, false, level).target() == Target.REPLICA
                    && replica.serve(false) != null) {
                StatementRoute retry = router.replicaRoute(replica.node(), RouteReason.RETRY_REPLICA);
                router.served(served.session, retry, shape, sql);
                return retry;
            }
            Connection got = null;
            try {
                Connection c = physical.primary();
                got = c;
                if (router.primarySuspect() && !ServerRole.isWritable(c)) {
                    // a replica behind a multi-host primary URL, not promoted yet: it may lack writes; the connection
                    // stays there (MariaDB Connector/J moves a connection only when its server is gone): not lent again
                    physical.discardPrimary();
                    throw new java.sql.SQLTransientConnectionException("hibernate-rwsplit [" + router.label()
                            + "]: the server behind the primary URL is read-only (a failover may be under way)", "08001");
                }
                if ((suspectAtGate || router.primarySuspect()) && route.gated() && gate.needsPosition(level)) {
                    // a promoted server may lack the write this read must see: the monitor's look at it tells
                    // (the gate above then fails the read with LostWriteException), the writable check does not;
                    // a look made since the gate answered is asked of the gate on the next try
                    throw new java.sql.SQLTransientConnectionException("hibernate-rwsplit [" + router.label()
                            + "]: the server behind the primary URL was not seen by the monitor since the primary"
                            + " connection broke (a failover may be under way)", "08001");
                }
                StatementRoute retry = router.primaryRoute(RouteReason.RETRY_PRIMARY);
                router.served(served.session, retry, shape, sql);
                return retry;
            }
            catch (SQLException e) {
                // a connection the pool lent whose check failed (its backend is gone, or the pool closed it when it
                // found it broken: "Connection is closed" comes without an SQLState) is a connection error too
                boolean broken = ConnectionErrors.isConnectionError(e) || closed(got);
                physical.dropPrimary(); // and it is not offered again
                long left = deadline - clock.nanoTime();
                boolean interrupted = Thread.currentThread().isInterrupted();
                if (!broken || left <= 0 || interrupted) {
                    ConnectionErrors.withSuppressed(failure, e);
                    if (interrupted) {
                        // the caller asked this thread to stop: give up now, and leave the interrupt for it to see
                        failure.addSuppressed(new InterruptedException("hibernate-rwsplit: interrupted while waiting"
                                + " for the primary's failover"));
                    }
                    throw failure;
                }
                LockSupport.parkNanos(Math.min(router.failoverPauseNanos(), left));
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
}
