package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Which server a driver's connection is on now, for a driver that may move a connection to another server without
 * an error. MariaDB Connector/J does, on a multi-host URL ({@code jdbc:mariadb:sequential://primary,replica1/db}):
 * when a command it may send again (the pool's {@code isValid} ping, {@code setAutoCommit}, {@code rollback}) finds
 * the connection's server gone, it re-opens the connection on the next host that answers, a replica, and the
 * statements that follow run there. A read the primary must serve may so be answered by a replica that lacks the
 * write it must see, with no error, before anything noticed that the primary is gone. Compared with the addresses
 * the primary was seen at, the address tells that a connection moved.
 * <p>
 * An address is a value (it has {@code equals}); {@code null} when the driver cannot say. Drivers whose connections
 * stay on their server (pgjdbc, H2) throw a connection error instead of moving, and say nothing here.
 */
public interface ServerAddress {

    /** The address of the server {@code connection} (a pool's, or the driver's own) is on now, or {@code null}. */
    Object of(Connection connection);

    /**
     * The driver's connection under {@code connection}, a pool's proxy: what closing closes for good, so that the
     * pool discards its proxy when it gets it back.
     */
    default Connection driverConnection(Connection connection) {
        return unwrapped(connection);
    }

    /** The drivers this module knows to move connections: MariaDB Connector/J 3. */
    static ServerAddress ofDrivers() {
        return new DriverAddresses();
    }

    /**
     * {@code connection} unwrapped ({@code unwrap(Connection.class)} until it returns the object it was asked on), or
     * {@code connection} itself when it cannot be unwrapped. A pool whose proxy answers for itself (DBCP2) stays
     * wrapped here.
     */
    static Connection unwrapped(Connection connection) {
        Connection c = connection;
        for (int i = 0; i < 4; i++) {
            Connection inner;
            try {
                inner = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
            }
            catch (SQLException | RuntimeException e) {
                return c;
            }
            if (inner == null || inner == c) {
                return c;
            }
            c = inner;
        }
        return c;
    }
}
