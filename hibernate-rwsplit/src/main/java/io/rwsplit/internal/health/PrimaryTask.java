package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.SQLException;

/** Work a lag probe needs done on the primary every probe interval (heartbeat writes, GTID samples). */
public interface PrimaryTask {

    void run(Connection primary) throws SQLException;

    /** Cleans up when the monitor stops. */
    default void close(Connection primary) throws SQLException {
    }
}
