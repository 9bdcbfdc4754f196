package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;

/** Where primary connections come from: the connection provider the application configured. */
public interface PrimarySource {

    Connection acquire() throws SQLException;

    void release(Connection connection) throws SQLException;

    /**
     * Gives back {@code connection} for good: one that leads where the primary's must not (a read-only server behind
     * a multi-host primary URL, where its driver moved it). Its driver connection is closed under the pool's, so that
     * the pool discards it instead of lending it again (a pool cannot tell otherwise), then it is released.
     */
    default void discard(Connection connection) throws SQLException {
        try {
            io.rwsplit.internal.health.ServerAddress.driverConnection(connection).close();
        }
        catch (SQLException | RuntimeException e) {
            // closed either way, or broken: the pool discards it when it finds so
        }
        release(connection);
    }
}
