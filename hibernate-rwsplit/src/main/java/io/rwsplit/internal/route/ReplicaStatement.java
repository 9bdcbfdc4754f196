package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A statement of {@code prepareStatement} prepared on a replica, or an autocommit read of it prepared on the
 * primary: its executions go through the {@link Failover} ({@link RoutedPreparedStatement}); to move, it is prepared
 * again with the same overload ({@link StatementShape}). Once closed, the object serves the connection's next such
 * statement ({@link ConnectionRouting#prepare}).
 */
final class ReplicaStatement extends RoutedPreparedStatement {

    private final ConnectionRouting routing;
    private StatementShape shape;

    /** @param check what its read must be checked against in its own round trip (its SQL carries the check), or null */
    ReplicaStatement(ConnectionRouting routing, StatementRoute route, PreparedStatement delegate,
                     ClassificationCache.Entry classified, boolean retryable, StatementShape shape,
                     io.rwsplit.position.ConsistencyToken check) {
        super(routing, route, delegate, classified, retryable, check);
        this.routing = routing;
        this.shape = shape;
    }

    /** Serves a new statement of the connection, as {@link ReplicaStatement#ReplicaStatement} would. */
    ReplicaStatement reuse(StatementRoute route, PreparedStatement delegate, ClassificationCache.Entry classified,
                           boolean retryable, StatementShape shape, io.rwsplit.position.ConsistencyToken check) {
        reuse(route, delegate, classified, retryable, check);
        this.shape = shape;
        return this;
    }

    @Override
    void closed() {
        routing.spare(this);
    }

    @Override
    PreparedStatement prepareAgain(Connection connection) throws SQLException {
        return shape.prepare(connection, sql);
    }
}
