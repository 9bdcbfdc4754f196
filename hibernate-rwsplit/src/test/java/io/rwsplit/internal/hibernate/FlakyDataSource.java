package io.rwsplit.internal.hibernate;

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
    /**
     * How many of the next executions fail as pgjdbc reports a backend whose server ended the session (its
     * postmaster died): SQLState 57P01, with the I/O error (08006) as the next exception, not the cause.
     */
    final AtomicInteger terminateNextExecutions = new AtomicInteger();
    /**
     * How many of the next executions fail with an error that names no connection problem, after which the
     * connection is closed, as a pool does with a connection it decided is broken.
     */
    final AtomicInteger closeNextExecutions = new AtomicInteger();
    /** How many of the next connection attempts are refused. */
    final AtomicInteger refuseNextConnects = new AtomicInteger();
    final AtomicInteger refusedConnects = new AtomicInteger();
    /** Connects refused to the thread that created this data source (the test's own thread, not the monitor's). */
    final AtomicInteger refusedConnectsOfCreator = new AtomicInteger();
    private final Thread creator = Thread.currentThread();

    FlakyDataSource(String url) {
        this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (refuseNextConnects.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            refusedConnects.incrementAndGet();
            if (Thread.currentThread() == creator) {
                refusedConnectsOfCreator.incrementAndGet();
            }
            throw new SQLNonTransientConnectionException("simulated: connection refused", "08001");
        }
        Connection real = DriverManager.getConnection(url, "sa", "");
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    return result instanceof PreparedStatement ps ? statement(ps, real) : result;
                });
    }

    private PreparedStatement statement(PreparedStatement real, Connection connection) {
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
                (proxy, method, args) -> {
                    if (refusing && method.getName().startsWith("execute")) {
                        failedExecutions.incrementAndGet();
                        throw new SQLException("simulated: cannot execute UPDATE in a read-only transaction", "25006");
                    }
                    if (method.getName().startsWith("execute") && terminateNextExecutions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        failedExecutions.incrementAndGet();
                        SQLException e = new SQLException("FATAL: terminating connection due to unexpected postmaster exit", "57P01");
                        e.setNextException(new SQLException("An I/O error occurred while sending to the backend.", "08006"));
                        throw e;
                    }
                    if (method.getName().startsWith("execute") && closeNextExecutions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        failedExecutions.incrementAndGet();
                        connection.close();
                        throw new SQLException("simulated: an error that names no connection problem", "XX000");
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
