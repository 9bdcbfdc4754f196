package io.rwsplit.hibernate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;

import io.rwsplit.testing.DataSourceAdapter;

/**
 * A replica DataSource over an H2 database whose statements can be made to fail on execution with a
 * connection-class error, as a replica that dies under a read does, or be refused as a write by a read-only
 * server (SQLState 25006). Probes ({@code isValid}) still work.
 */
final class FlakyDataSource extends DataSourceAdapter {

    private final String url;
    volatile boolean failing;
    /** Executions fail as a read-only standby refuses a write (SQLState 25006); the connection stays fine. */
    volatile boolean refusing;
    final AtomicInteger failedExecutions = new AtomicInteger();
    /** How many of the next executions fail with a connection error (a server that went away under them). */
    final AtomicInteger failNextExecutions = new AtomicInteger();
    /** How many of the next connection attempts are refused. */
    final AtomicInteger refuseNextConnects = new AtomicInteger();
    final AtomicInteger refusedConnects = new AtomicInteger();

    FlakyDataSource(String url) {
        this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (refuseNextConnects.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            refusedConnects.incrementAndGet();
            throw new SQLNonTransientConnectionException("simulated: connection refused", "08001");
        }
        Connection real = DriverManager.getConnection(url, "sa", "");
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    return result instanceof PreparedStatement ps ? statement(ps) : result;
                });
    }

    private PreparedStatement statement(PreparedStatement real) {
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
                (proxy, method, args) -> {
                    if (refusing && method.getName().startsWith("execute")) {
                        failedExecutions.incrementAndGet();
                        throw new SQLException("simulated: cannot execute UPDATE in a read-only transaction", "25006");
                    }
                    if (method.getName().startsWith("execute") && failNextExecutions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        failedExecutions.incrementAndGet();
                        throw new SQLNonTransientConnectionException("simulated: terminating connection", "08006");
                    }
                    if (failing && method.getName().startsWith("execute")) {
                        failedExecutions.incrementAndGet();
                        throw new SQLNonTransientConnectionException("simulated: socket closed by peer", "08S01");
                    }
                    return invoke(real, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
