package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;

/** Where primary connections come from: the connection provider the application configured. */
public interface PrimarySource {

    Connection acquire() throws SQLException;

    void release(Connection connection) throws SQLException;

    /**
     * Has the pool close {@code connection}, lent by this source, instead of lending it again (HikariCP's
     * {@code evictConnection}, which closes it at once); a pool that cannot does nothing here.
     */
    default void evict(Connection connection) {
    }
}
