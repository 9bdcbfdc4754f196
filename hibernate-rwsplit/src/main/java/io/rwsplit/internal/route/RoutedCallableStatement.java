package io.rwsplit.internal.route;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;

/**
 * A callable statement of a {@link RoutingConnection}: the {@code PreparedStatement} part forwards through
 * {@code ForwardingPreparedStatement} (which also makes {@link #getConnection()} return the routing connection,
 * so that no caller reaches the physical connection around routing), and its executions go through the
 * connection's {@link Failover} as those of {@code prepareStatement} do ({@link RoutedPreparedStatement}). The
 * methods {@link CallableStatement} adds forward to the driver's statement ({@code ForwardingCallableStatement},
 * generated at build time); an OUT parameter that is a cursor is handed out as this statement's result sets are. Its
 * setters by name and its OUT parameters are not recorded: once one is called, an execution is not replayed elsewhere
 * (the error goes to the caller, as for a stream parameter).
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

    // ------------------------------------------------------------------ OUT parameters that are cursors (RoutedResultSet#cursor)

    @Override
    public Object getObject(int parameterIndex) throws SQLException {
        return RoutedResultSet.cursor(handle, callable.getObject(parameterIndex));
    }

    @Override
    public Object getObject(String parameterName) throws SQLException {
        return RoutedResultSet.cursor(handle, callable.getObject(parameterName));
    }

    @Override
    public Object getObject(int parameterIndex, Map<String, Class<?>> map) throws SQLException {
        return RoutedResultSet.cursor(handle, callable.getObject(parameterIndex, map));
    }

    @Override
    public Object getObject(String parameterName, Map<String, Class<?>> map) throws SQLException {
        return RoutedResultSet.cursor(handle, callable.getObject(parameterName, map));
    }

    @Override
    public <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
        return RoutedResultSet.cursor(handle, callable.getObject(parameterIndex, type), type);
    }

    @Override
    public <T> T getObject(String parameterName, Class<T> type) throws SQLException {
        return RoutedResultSet.cursor(handle, callable.getObject(parameterName, type), type);
    }
}
