package io.rwsplit.internal.route;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Every statement door of one logical connection ({@code createStatement}, {@code prepareStatement},
 * {@code prepareCall}, each overload): the statement is routed by its {@link ConnectionRouting}, prepared on the
 * physical connection the route leads to, and wrapped in a body that never leaks that connection and whose executions
 * go through the connection's {@link Failover} where they may move. Closed statements' bodies wait here for the
 * connection's next statement of their kind. Used by one thread at a time, like the logical connection.
 */
final class StatementDoors {

    private final ConnectionRouting routing;
    private final Served served;
    private final ConsistencyGate gate;
    private final PhysicalConnections physical;
    private final ConnectionSettings settings;
    /**
     * Closed statements' bodies, one of each kind, kept for the next statement of the kind, also a later session's
     * (their handles are closed for good, and a body holds nothing of its last statement); null until one closed.
     */
    private ReplicaStatement idleRead;
    private PrimaryStatement idlePrimary;
    private RoutedStatement idleStatement;

    StatementDoors(ConnectionRouting routing, Served served, ConsistencyGate gate, PhysicalConnections physical,
                   ConnectionSettings settings) {
        this.routing = routing;
        this.served = served;
        this.gate = gate;
        this.physical = physical;
        this.settings = settings;
    }

    /** Every {@code createStatement} overload: no SQL yet, each execution is routed by its own SQL. */
    Statement statement(StatementShape shape) throws SQLException {
        served.owner.checkOpen();
        RoutedStatement body = idleStatement;
        idleStatement = null;
        return (body != null ? body : new RoutedStatement(routing)).open(served.owner, shape);
    }

    /** Every {@code prepareStatement} overload: routed by its SQL, wrapped so that it never leaks the physical connection. */
    PreparedStatement prepare(String sql, StatementShape shape) throws SQLException {
        ClassificationCache.Entry classified = routing.classify(sql);
        int isolation = settings.isolation();
        // at REPEATABLE READ or SERIALIZABLE both statements of a checked read share the snapshot taken before the check
        boolean checkable = shape.checkable() && (isolation == -1 || isolation == Connection.TRANSACTION_READ_COMMITTED
                || isolation == Connection.TRANSACTION_READ_UNCOMMITTED);
        if (checkable) {
            gate.checkable();
        }
        StatementRoute route;
        io.rwsplit.position.ConsistencyToken check;
        try {
            route = routing.route(classified, shape.updatable());
        }
        finally {
            check = checkable ? gate.takeCheck() : null;
        }
        if (check != null && route.node() != null) {
            // a read that must see a write its standby is not known to have: checked in its own round trip
            PreparedStatement ps = shape.prepare(physical.connection(route),
                    io.rwsplit.internal.consistency.CausalReads.checkedInRead(sql));
            return readBody().open(route, ps, classified, true, shape, check);
        }
        PreparedStatement ps = shape.prepare(physical.connection(route), sql);
        if (route.node() != null) {
            // its parameters are recorded also in a transaction: executed after it, it may have to move
            return readBody().open(route, ps, classified, true, shape, null);
        }
        // an autocommit read on the primary records its parameters: it may run again after a failover
        if (route.autocommitRead()) {
            return readBody().open(route, ps, classified, true, shape, null);
        }
        PrimaryStatement body = idlePrimary;
        idlePrimary = null;
        boolean writeLike = shape.updatable() || classified.kind().writeLike();
        return (body != null ? body : new PrimaryStatement(routing)).open(route.writes(), writeLike, ps,
                classified.shape());
    }

    /** Every {@code prepareCall} overload: routed by its SQL, and failing over as a prepared statement does. */
    CallableStatement call(String sql, StatementShape shape) throws SQLException {
        ClassificationCache.Entry classified = routing.classify(sql);
        StatementRoute route = routing.route(classified, shape.updatable());
        CallableStatement call = shape.prepareCall(physical.connection(route), sql);
        boolean retryable = route.node() != null || route.autocommitRead();
        return new RoutedCallableStatement(routing, route, call, classified, retryable, shape);
    }

    // ------------------------------------------------------------------ statement bodies kept for the next statement

    /** A body for a statement that may move: the one kept idle, or a new one. */
    private ReplicaStatement readBody() {
        ReplicaStatement body = idleRead;
        if (body == null) {
            return new ReplicaStatement(routing);
        }
        idleRead = null;
        return body;
    }

    /** {@code body}, closed by a statement of {@code by}, waits for this connection's next statement of its kind. */
    void idle(ReplicaStatement body, RoutingConnection by) {
        if (keeps(by)) {
            idleRead = body;
        }
    }

    /** {@code body}, closed by a statement of {@code by}, waits for this connection's next statement of its kind. */
    void idle(PrimaryStatement body, RoutingConnection by) {
        if (keeps(by)) {
            idlePrimary = body;
        }
    }

    /** {@code body}, closed by a statement of {@code by}, waits for this connection's next statement of its kind. */
    void idle(RoutedStatement body, RoutingConnection by) {
        if (keeps(by)) {
            idleStatement = body;
        }
    }

    /**
     * Whether a body closed by a statement of the facade {@code by} may wait here: only while {@code by} is open (once
     * closed, these parts may serve another session: they are not that statement's to touch).
     */
    private static boolean keeps(RoutingConnection by) {
        return !by.isClosed();
    }
}
