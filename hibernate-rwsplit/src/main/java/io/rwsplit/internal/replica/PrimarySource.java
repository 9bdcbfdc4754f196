package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;

/** Where primary connections come from: the connection provider the application configured. */
public interface PrimarySource {

    Connection acquire() throws SQLException;

    void release(Connection connection) throws SQLException;
}
