package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A statement of {@code prepareStatement} prepared on a replica, or an autocommit read of it prepared on the
 * primary: its executions go through the {@link Failover} ({@link RoutedPreparedStatement}); to move, it is prepared
 * again with the same overload ({@link StatementShape}).
 */
final class ReplicaStatement extends RoutedPreparedStatement {

    private final StatementShape shape;

    ReplicaStatement(ConnectionRouting routing, StatementRoute route, PreparedStatement delegate,
                     ClassificationCache.Entry classified, boolean retryable, StatementShape shape) {
        super(routing, route, delegate, classified, retryable);
        this.shape = shape;
    }

    @Override
    PreparedStatement prepareAgain(Connection connection) throws SQLException {
        return shape.prepare(connection, sql);
    }
}
