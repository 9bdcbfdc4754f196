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

    /** @param check what its read must be checked against in its own round trip (its SQL carries the check), or null */
    ReplicaStatement(ConnectionRouting routing, StatementRoute route, PreparedStatement delegate,
                     ClassificationCache.Entry classified, boolean retryable, StatementShape shape,
                     io.rwsplit.position.ConsistencyToken check) {
        super(routing, route, delegate, classified, retryable, check);
        this.shape = shape;
    }

    @Override
    PreparedStatement prepareAgain(Connection connection) throws SQLException {
        return shape.prepare(connection, sql);
    }
}
