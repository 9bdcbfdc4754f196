package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * The settings made on one logical connection (isolation, catalog, schema, holdability, network timeout), as the
 * application set them: {@link PhysicalConnections} applies each to the physical connections open when it is set
 * and to every one it opens later, so that the primary and a replica connection opened after the call behave alike.
 * Used by one thread at a time, like the logical connection.
 */
final class ConnectionSettings {

    private int isolation = -1;
    private String catalog;
    private String schema;
    private int holdability = -1;
    private Executor networkExecutor;
    private int networkTimeout = -1;

    /** Back to none set: the logical connection serves another session ({@link Router#open}). */
    void clear() {
        isolation = -1;
        catalog = null;
        schema = null;
        holdability = -1;
        networkExecutor = null;
        networkTimeout = -1;
    }

    /** The isolation set on the logical connection, or read from its first connection; -1: neither. */
    int isolation() {
        return isolation;
    }

    /** Sets the isolation read from the first connection: replayed on the ones opened later, like a set one. */
    void isolation(int level) {
        isolation = level;
    }

    /** Sets the isolation on the open connections and on those opened later. */
    void isolation(int level, PhysicalConnections open) throws SQLException {
        isolation = level;
        open.forEachOpen(c -> c.setTransactionIsolation(level));
    }

    /** The catalog set on the logical connection, or null. */
    String catalog() {
        return catalog;
    }

    void catalog(String catalog, PhysicalConnections open) throws SQLException {
        this.catalog = catalog;
        open.forEachOpen(c -> c.setCatalog(catalog));
    }

    /** The schema set on the logical connection, or null. */
    String schema() {
        return schema;
    }

    void schema(String schema, PhysicalConnections open) throws SQLException {
        this.schema = schema;
        open.forEachOpen(c -> c.setSchema(schema));
    }

    /** The holdability set on the logical connection, or -1. */
    int holdability() {
        return holdability;
    }

    void holdability(int holdability, PhysicalConnections open) throws SQLException {
        this.holdability = holdability;
        open.forEachOpen(c -> c.setHoldability(holdability));
    }

    /** The network timeout set on the logical connection (milliseconds), or -1. */
    int networkTimeout() {
        return networkTimeout;
    }

    /** Sets the network timeout on the open connections and on those opened later; a negative one is refused. */
    void networkTimeout(Executor executor, int milliseconds, PhysicalConnections open) throws SQLException {
        if (milliseconds < 0) {
            throw new SQLException("hibernate-rwsplit: a network timeout cannot be negative: " + milliseconds, "22023");
        }
        this.networkExecutor = executor;
        this.networkTimeout = milliseconds;
        open.forEachOpen(c -> c.setNetworkTimeout(executor, milliseconds));
    }

    /** Brings a connection opened now up to the settings made so far. */
    void applyTo(Connection c) throws SQLException {
        if (isolation != -1 && c.getTransactionIsolation() != isolation) {
            c.setTransactionIsolation(isolation);
        }
        if (catalog != null) {
            c.setCatalog(catalog);
        }
        if (schema != null) {
            c.setSchema(schema);
        }
        if (holdability != -1) {
            c.setHoldability(holdability);
        }
        if (networkTimeout != -1) {
            c.setNetworkTimeout(networkExecutor, networkTimeout);
        }
    }
}
