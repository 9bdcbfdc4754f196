package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What routing may ask of a replica's connection pool so that a connection that ran replayed session
 * commands goes back as it came out: the SQL the pool runs on each new connection, and a way to close a
 * connection for good instead of returning it. Built by the composition root for the pools it knows (HikariCP).
 */
public interface PoolControl {

    /** The SQL the pool runs on each new connection ({@code connectionInitSql}), or {@code null}. */
    String initSql();

    /** Closes {@code connection}, taken from this pool, for good: the pool opens a fresh one instead. */
    void evict(Connection connection) throws SQLException;

    /**
     * Whether the pool holds open connections to its server now: then a timeout of the pool means they are all
     * busy (saturation); a pool that holds none timed out because it could not connect (a server that does not
     * answer). Pools that cannot tell say yes.
     */
    default boolean holdsConnections() {
        return true;
    }

    /**
     * Whether every connection the pool lends is in autocommit mode (it opens them so and sets autocommit back when
     * one returns changed, as HikariCP does with {@code autoCommit=true}): then a read outside a transaction need not
     * ask the driver. Pools that cannot tell say no.
     */
    default boolean lendsAutoCommit() {
        return false;
    }
}
