package io.rwsplit.internal.health;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.sql.Connection;

/**
 * {@link ServerAddress} of the drivers that move connections: MariaDB Connector/J 3, whose connection
 * ({@code org.mariadb.jdbc.Connection}) says its current client's host ({@code getClient().getHostAddress()}, public
 * methods; on a multi-host URL the client is the host it re-opened on last). Looked up by reflection once per driver
 * connection class, since the driver is the application's choice; a class that has no such method says nothing.
 */
final class DriverAddresses implements ServerAddress {

    private static final String MARIADB_CONNECTION = "org.mariadb.jdbc.Connection";

    /**
     * How the connections of one class (a pool's proxy, or the driver's own) say their address: {@code address} null
     * when their driver cannot, so that such a connection is not even unwrapped.
     */
    private record Lookup(Class<?> type, MethodHandle address) {
    }

    /** The last class looked up: the primary has one pool and one driver (a race only looks up twice). */
    private volatile Lookup last = new Lookup(Void.class, null);

    @Override
    public Object of(Connection connection) {
        Lookup lookup = last;
        if (lookup.type() != connection.getClass()) {
            lookup = new Lookup(connection.getClass(), addressOf(ServerAddress.driverConnection(connection).getClass()));
            last = lookup;
        }
        if (lookup.address() == null) {
            return null;
        }
        Connection driver = ServerAddress.driverConnection(connection);
        try {
            return (Object) lookup.address().invokeExact((Object) driver);
        }
        catch (Throwable e) {
            return null;   // closed, or a driver version that changed: no address, no check
        }
    }

    /** How a driver connection of class {@code type} says its address, or null. */
    private static MethodHandle addressOf(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(MARIADB_CONNECTION)) {
                try {
                    Method getClient = c.getMethod("getClient");
                    Method getHostAddress = getClient.getReturnType().getMethod("getHostAddress");
                    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                    MethodHandle address = MethodHandles.filterReturnValue(lookup.unreflect(getClient),
                            lookup.unreflect(getHostAddress));
                    return address.asType(MethodType.methodType(Object.class, Object.class));
                }
                catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
