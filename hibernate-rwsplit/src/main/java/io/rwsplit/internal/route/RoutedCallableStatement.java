package io.rwsplit.internal.route;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A callable statement of a {@link RoutingConnection}: the {@code PreparedStatement} part forwards through
 * {@code ForwardingPreparedStatement} (which also makes {@link #getConnection()} return the routing connection,
 * so that no caller reaches the physical connection around routing), and its executions go through the
 * connection's {@link Failover} as those of {@code prepareStatement} do ({@link RoutedPreparedStatement}). The
 * methods {@link CallableStatement} adds forward to the driver's statement ({@code ForwardingCallableStatement},
 * generated at build time). Its setters by name and its OUT parameters are not recorded: once one is called,
 * an execution is not replayed elsewhere (the error goes to the caller, as for a stream parameter).
 */
final class RoutedCallableStatement extends ForwardingCallableStatement {

    private final StatementShape shape;

    RoutedCallableStatement(ConnectionRouting routing, StatementRoute route, CallableStatement delegate,
                            ClassificationCache.Entry classified, boolean retryable, StatementShape shape) {
        super(routing, route, delegate, classified, retryable);
        this.shape = shape;
    }

    @Override
    PreparedStatement prepareAgain(Connection connection) throws SQLException {
        return shape.prepareCall(connection, sql);
    }
}
