package io.rwsplit.route;

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

    /** The isolation set on the logical connection, or read from its first connection; -1: neither. */
    int isolation() {
        return isolation;
    }

    void isolation(int level) {
        isolation = level;
    }

    /** The catalog set on the logical connection, or null. */
    String catalog() {
        return catalog;
    }

    void catalog(String catalog) {
        this.catalog = catalog;
    }

    /** The schema set on the logical connection, or null. */
    String schema() {
        return schema;
    }

    void schema(String schema) {
        this.schema = schema;
    }

    /** The holdability set on the logical connection, or -1. */
    int holdability() {
        return holdability;
    }

    void holdability(int holdability) {
        this.holdability = holdability;
    }

    /** The network timeout set on the logical connection (milliseconds), or -1. */
    int networkTimeout() {
        return networkTimeout;
    }

    void networkTimeout(Executor executor, int milliseconds) {
        this.networkExecutor = executor;
        this.networkTimeout = milliseconds;
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
