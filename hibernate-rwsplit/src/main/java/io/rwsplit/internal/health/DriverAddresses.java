package io.rwsplit.internal.health;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ServerAddress} of the drivers that move connections: MariaDB Connector/J 3, whose connection
 * ({@code org.mariadb.jdbc.Connection}) says its current client's host ({@code getClient().getHostAddress()}, public
 * methods; on a multi-host URL the client is the host it re-opened on last). Looked up by reflection once per pool
 * connection class, since the driver is the application's choice; the driver's connection is reached with
 * {@code unwrap} to its own class, which every pool answers (HikariCP, DBCP2, Agroal).
 */
final class DriverAddresses implements ServerAddress {

    private static final Logger log = LoggerFactory.getLogger(DriverAddresses.class);
    private static final String MARIADB_CONNECTION = "org.mariadb.jdbc.Connection";

    /**
     * How the connections of one class (a pool's proxy, or the driver's own) say their address: their driver's
     * connection class and its address getter, both null when their driver cannot say (then nothing is unwrapped).
     */
    private record Lookup(Class<?> type, Class<? extends Connection> driver, MethodHandle address) {
    }

    /** The last class looked up: the primary has one pool and one driver (a race only looks up twice). */
    private volatile Lookup last = new Lookup(Void.class, null, null);

    @Override
    public Object of(Connection connection) {
        Lookup lookup = lookup(connection);
        if (lookup.address() == null) {
            return null;
        }
        try {
            return (Object) lookup.address().invokeExact((Object) connection.unwrap(lookup.driver()));
        }
        catch (Error e) {
            throw e;
        }
        catch (Throwable e) {
            return null;   // a closed connection: no address, and its next use fails anyway
        }
    }

    @Override
    public Connection driverConnection(Connection connection) {
        Lookup lookup = lookup(connection);
        if (lookup.driver() != null) {
            try {
                return connection.unwrap(lookup.driver());
            }
            catch (SQLException | RuntimeException e) {
                // as below
            }
        }
        return ServerAddress.unwrapped(connection);
    }

    private Lookup lookup(Connection connection) {
        Lookup lookup = last;
        if (lookup.type() != connection.getClass()) {
            lookup = lookUp(connection);
            last = lookup;
        }
        return lookup;
    }

    private static Lookup lookUp(Connection connection) {
        Class<? extends Connection> driver = mariaDbConnection(connection);
        MethodHandle address = driver == null ? null : addressOf(driver);
        return new Lookup(connection.getClass(), address == null ? null : driver, address);
    }

    /** MariaDB Connector/J's connection class, when {@code connection} is one or wraps one; else null. */
    @SuppressWarnings("unchecked")
    private static Class<? extends Connection> mariaDbConnection(Connection connection) {
        for (Class<?> c = ServerAddress.unwrapped(connection).getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(MARIADB_CONNECTION)) {
                return (Class<? extends Connection>) c;
            }
        }
        // a pool whose proxy does not unwrap to Connection.class (DBCP2): ask it for the driver's class by name
        for (ClassLoader loader : new ClassLoader[] {connection.getClass().getClassLoader(),
                Thread.currentThread().getContextClassLoader(), DriverAddresses.class.getClassLoader()}) {
            try {
                Class<?> type = Class.forName(MARIADB_CONNECTION, false, loader);
                if (Connection.class.isAssignableFrom(type) && connection.isWrapperFor(type)) {
                    return (Class<? extends Connection>) type;
                }
            }
            catch (ClassNotFoundException | SQLException | RuntimeException | LinkageError e) {
                // not this loader's
            }
        }
        return null;
    }

    /** How a MariaDB connection of class {@code type} says its address, or null (logged: a driver that changed). */
    static MethodHandle addressOf(Class<?> type) {
        try {
            Method getClient = type.getMethod("getClient");
            Method getHostAddress = getClient.getReturnType().getMethod("getHostAddress");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle address = MethodHandles.filterReturnValue(lookup.unreflect(getClient),
                    lookup.unreflect(getHostAddress));
            return address.asType(MethodType.methodType(Object.class, Object.class));
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("hibernate-rwsplit: this MariaDB Connector/J ({}) does not say which host a connection is on"
                    + " (getClient().getHostAddress()): a primary connection it moves to a replica without an error is"
                    + " not found before the monitor sees the primary gone: {}", type.getName(), e.toString());
            return null;
        }
    }
}
