package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;

/** Where primary connections come from: the connection provider the application configured. */
public interface PrimarySource {

    Connection acquire() throws SQLException;

    void release(Connection connection) throws SQLException;

    /**
     * Marks {@code connection}, lent by this source, to be closed by its pool when it is released instead of lent
     * again (HikariCP's {@code evictConnection}); false when the pool cannot (the caller then closes the driver's
     * connection under the pool's).
     */
    default boolean evict(Connection connection) {
        return false;
    }
}
