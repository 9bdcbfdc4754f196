package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * The settings made on one logical connection (isolation, catalog, schema, holdability, network timeout, client info,
 * type map), as the application set them: {@link PhysicalConnections} applies each to the physical connections open
 * when it is set and to every one it opens later, so that the primary and a replica connection opened after the call
 * behave alike. Used by one thread at a time, like the logical connection.
 */
final class ConnectionSettings {

    private int isolation = -1;
    private String catalog;
    private String schema;
    private int holdability = -1;
    private Executor networkExecutor;
    private int networkTimeout = -1;
    /** The client info the application gave as one set ({@code setClientInfo(Properties)}), or null. */
    private Properties clientInfoSet;
    /** The client info properties set by name since that set (a null value clears one), in the order set, or null. */
    private Map<String, String> clientInfo;
    /** The type map set on the logical connection, or null. */
    private Map<String, Class<?>> typeMap;

    /** Back to none set: the logical connection serves another session ({@link Router#open}). */
    void clear() {
        isolation = -1;
        catalog = null;
        schema = null;
        holdability = -1;
        networkExecutor = null;
        networkTimeout = -1;
        clientInfoSet = null;
        clientInfo = null;
        typeMap = null;
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

    /**
     * Sets client info property {@code name} on {@code current} (the connection of the current transaction) first, so
     * that a name the driver refuses fails there before it is kept, then on the other open connection and on those
     * opened later: the session's statements run under it wherever they are routed (pgjdbc sends ApplicationName to the
     * server, where it names the session in pg_stat_activity and in the logs).
     */
    void clientInfo(String name, String value, Connection current, PhysicalConnections open) throws SQLException {
        current.setClientInfo(name, value);
        if (clientInfo == null) {
            clientInfo = new LinkedHashMap<>();
        }
        clientInfo.put(name, value);
        onTheOthers(open, current, c -> replayClientInfo(c, name, value, null));
    }

    /**
     * Sets the client info of {@code current} first, then of the other open connection and of those opened later, to
     * {@code properties}, which replace every property set before (by name or as a set), as JDBC says. A copy is kept:
     * the caller may change its own later.
     */
    void clientInfo(Properties properties, Connection current, PhysicalConnections open) throws SQLException {
        current.setClientInfo(properties);
        Properties set = new Properties();
        for (String name : properties.stringPropertyNames()) {
            set.setProperty(name, properties.getProperty(name));
        }
        clientInfoSet = set;
        clientInfo = null;
        onTheOthers(open, current, c -> replayClientInfo(c, null, null, set));
    }

    /**
     * Sets the type map on {@code current} first (a driver that takes none refuses it there, before it is kept), then
     * on the other open connection and on those opened later: a value read on a replica is mapped as on the primary.
     */
    void typeMap(Map<String, Class<?>> map, Connection current, PhysicalConnections open) throws SQLException {
        current.setTypeMap(map);
        typeMap = map == null ? null : new java.util.HashMap<>(map);   // the caller may change its own later
        onTheOthers(open, current, c -> c.setTypeMap(map));
    }

    /** {@code action} on each open connection but {@code current}, which the setting was made on first. */
    private static void onTheOthers(PhysicalConnections open, Connection current, PhysicalConnections.Action action)
            throws SQLException {
        open.forEachOpen(c -> {
            if (c != current) {
                action.apply(c);
            }
        });
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
        if (typeMap != null) {
            c.setTypeMap(typeMap);
        }
        if (clientInfoSet != null) {
            replayClientInfo(c, null, null, clientInfoSet);
        }
        if (clientInfo != null) {
            for (Map.Entry<String, String> property : clientInfo.entrySet()) {
                replayClientInfo(c, property.getKey(), property.getValue(), null);
            }
        }
    }

    /**
     * Client info set again on {@code c}, another physical connection than the one it was set on (property
     * {@code name}, or the whole {@code set}): the driver took it on that one, so a refusal here is the server's (MySQL Connector/J's stored-procedure provider writes,
     * and a read-only replica refuses it), which says nothing of the replica's health and must not fail the read that
     * opens the connection or mark the replica down: the property is left as the pool lent it, at debug level (names
     * only: a value may be a user's). A connection error still fails, as any other call's would.
     */
    private static void replayClientInfo(Connection c, String name, String value, Properties set) throws SQLException {
        try {
            if (set != null) {
                c.setClientInfo(set);
            }
            else {
                c.setClientInfo(name, value);
            }
        }
        catch (java.sql.SQLClientInfoException e) {
            if (io.rwsplit.internal.health.ConnectionErrors.isConnectionError(e)) {
                throw e;
            }
            Router.log.debug("client info {} not set again on another physical connection of the session (SQLState {}):"
                    + " it keeps the pool's",
                    set != null ? set.stringPropertyNames() : name, e.getSQLState());
        }
    }
}
