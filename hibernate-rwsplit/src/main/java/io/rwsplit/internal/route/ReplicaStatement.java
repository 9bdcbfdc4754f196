package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A statement of {@code prepareStatement} prepared on a replica, or an autocommit read of it prepared on the
 * primary: its executions go through the {@link Failover} ({@link RoutedPreparedStatement}); to move, it is prepared
 * again with the same overload ({@link StatementShape}). The application holds its handle; once closed, the body is
 * kept by its connection for the next such statement ({@link StatementDoors#idle(ReplicaStatement, RoutingConnection)}).
 */
final class ReplicaStatement extends RoutedPreparedStatement {

    private final ConnectionRouting routing;
    private StatementShape shape;

    ReplicaStatement(ConnectionRouting routing) {
        super(routing);
        this.routing = routing;
    }

    /** @param check what its read must be checked against in its own round trip (its SQL carries the check), or null */
    PreparedStatement open(StatementRoute route, PreparedStatement delegate, ClassificationCache.Entry classified,
                           boolean retryable, StatementShape shape, io.rwsplit.position.ConsistencyToken check) {
        open(route, delegate, classified, retryable, check);
        if (this.shape != shape) {   // a shared value, kept while idle: written only when it changes (see open)
            this.shape = shape;
        }
        return handOut();
    }

    @Override
    PreparedStatement prepareAgain(Connection connection) throws SQLException {
        return shape.prepare(connection, sql);
    }

    /** Closes the statement; its body waits for the next one while its connection is still open. */
    @Override
    public void close() throws SQLException {
        RoutingConnection by = (RoutingConnection) owner;
        try {
            super.close();
        }
        finally {
            forgetStatement();
            routing.doors().idle(this, by);
        }
    }
}
