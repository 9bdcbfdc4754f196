package io.rwsplit.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The running replicated cluster, as seen by a test: addresses, credentials, JDBC helpers and
 * controls (delay, pause, kill, ...) that take effect before they return.
 *
 * <p>Nodes are named {@value #PRIMARY} and {@code replica1}, {@code replica2}, ... (see
 * {@link #replica(int)}); replica numbers are 1-based. JDBC helpers connect as the application
 * user with the MariaDB driver; {@link #sql(String, String)} runs as root through the script.
 */
public final class Cluster {

    public static final String PRIMARY = "primary";

    /** The JDBC drivers the tests use, with the URL each needs to reach a MariaDB node. */
    public enum JdbcDriver {
        MARIADB("jdbc:mariadb://127.0.0.1:%d/%s"),
        MYSQL("jdbc:mysql://127.0.0.1:%d/%s?sslMode=DISABLED&allowPublicKeyRetrieval=true");

        private final String format;

        JdbcDriver(String format) {
            this.format = format;
        }

        String url(int port, String database) {
            return String.format(format, port, database);
        }
    }

    private static final int SYNC_TIMEOUT_SECONDS = 30;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final ClusterScript script;
    private final int primaryPort;
    private final int replicaCount;
    private final String database;
    private final String user;
    private final String password;
    /** Set when a test may have left the cluster other than clean and in sync. */
    private final AtomicBoolean changed = new AtomicBoolean(true);

    private Cluster(ClusterScript script, Map<String, String> info) {
        this.script = script;
        this.primaryPort = Integer.parseInt(required(info, "BASE_PORT"));
        this.replicaCount = Integer.parseInt(required(info, "REPLICAS"));
        this.database = required(info, "DATABASE");
        this.user = required(info, "USER");
        this.password = required(info, "PASSWORD");
    }

    /** Reads the topology of the cluster the script manages (it must have been started once). */
    static Cluster describedBy(ClusterScript script) {
        Map<String, String> info = new HashMap<>();
        for (String line : script.run("info").split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                info.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return new Cluster(script, info);
    }

    private static String required(Map<String, String> info, String key) {
        String value = info.get(key);
        if (value == null) {
            throw new IllegalStateException("cluster.sh info did not report " + key + ": " + info);
        }
        return value;
    }

    // ------------------------------------------------------------------ topology

    /** {@code replica1}, {@code replica2}, ... */
    public static String replica(int replica) {
        return "replica" + replica;
    }

    /** The primary followed by every replica. */
    public List<String> nodes() {
        List<String> nodes = new ArrayList<>();
        nodes.add(PRIMARY);
        for (int i = 1; i <= replicaCount; i++) {
            nodes.add(replica(i));
        }
        return Collections.unmodifiableList(nodes);
    }

    public int replicaCount() {
        return replicaCount;
    }

    public int primaryPort() {
        return primaryPort;
    }

    /** Ports of replica1, replica2, ... in that order. */
    public List<Integer> replicaPorts() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 1; i <= replicaCount; i++) {
            ports.add(primaryPort + i);
        }
        return Collections.unmodifiableList(ports);
    }

    public int port(String node) {
        if (PRIMARY.equals(node)) {
            return primaryPort;
        }
        return primaryPort + checkReplica(replicaNumber(node));
    }

    /** The application database, recreated empty before every test. */
    public String database() {
        return database;
    }

    /** The application user: all privileges on the database, none to write on a read-only replica. */
    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public String jdbcUrl(String node, JdbcDriver driver) {
        return driver.url(port(node), database);
    }

    /** {@code jdbc:mariadb://127.0.0.1:PORT/rwsplit} */
    public String mariadbUrl(String node) {
        return jdbcUrl(node, JdbcDriver.MARIADB);
    }

    /** {@code jdbc:mysql://127.0.0.1:PORT/rwsplit?...} for mysql-connector-j. */
    public String mysqlUrl(String node) {
        return jdbcUrl(node, JdbcDriver.MYSQL);
    }

    // ------------------------------------------------------------------ JDBC helpers

    /** A new connection to the node as the application user, with the MariaDB driver. */
    public Connection connect(String node) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        properties.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_MILLIS));
        return DriverManager.getConnection(mariadbUrl(node), properties);
    }

    /** Runs a query returning one integer (first column of the only row) as the application user. */
    public int queryInt(String node, String sql) throws SQLException {
        try (Connection connection = connect(node);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new SQLException("no row from " + node + " for: " + sql);
            }
            int value = rows.getInt(1);
            if (rows.wasNull() || rows.next()) {
                throw new SQLException("expected exactly one non-null value from " + node + " for: " + sql);
            }
            return value;
        }
    }

    /** Runs a query returning one string (first column of the only row) as the application user. */
    public String queryString(String node, String sql) throws SQLException {
        try (Connection connection = connect(node);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new SQLException("no row from " + node + " for: " + sql);
            }
            String value = rows.getString(1);
            if (rows.next()) {
                throw new SQLException("expected exactly one row from " + node + " for: " + sql);
            }
            return value;
        }
    }

    /** Runs DDL or DML as the application user (autocommit) and returns the update count. */
    public int update(String node, String sql) throws SQLException {
        try (Connection connection = connect(node); Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        }
    }

    // ------------------------------------------------------------------ controls

    /** Runs SQL as root on a node through the script; returns tab-separated rows without header. */
    public String sql(String node, String sql) {
        changed.set(true); // root can change anything, replication included
        return script.run("sql", node, sql);
    }

    /** Waits until every replica applied everything the primary has written. */
    public void sync() {
        script.run("sync");
    }

    /** Waits until one replica applied everything the primary has written. */
    public void sync(int replica) throws SQLException {
        String gtid = rootQuery(PRIMARY, "SELECT @@gtid_binlog_pos");
        String result = rootQuery(replica(checkReplica(replica)),
                "SELECT MASTER_GTID_WAIT('" + gtid + "', " + SYNC_TIMEOUT_SECONDS + ")");
        if (!"0".equals(result)) {
            throw new IllegalStateException(replica(replica) + " did not apply primary position '" + gtid
                    + "' within " + SYNC_TIMEOUT_SECONDS + "s");
        }
    }

    /** Makes the replica apply each event {@code seconds} after it was committed on the primary. */
    public void delay(int replica, int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("delay must be >= 0 seconds, got " + seconds);
        }
        changed.set(true);
        script.run("delay", replica(checkReplica(replica)), Integer.toString(seconds));
    }

    /** Stops the replica's SQL thread: it keeps receiving events but applies none. */
    public void pause(int replica) {
        changed.set(true);
        script.run("pause", replica(checkReplica(replica)));
    }

    /** Starts the replica's SQL thread again. */
    public void resume(int replica) {
        changed.set(true);
        script.run("resume", replica(checkReplica(replica)));
    }

    /** SIGKILLs a node's server; returns once the process is gone. */
    public void kill(String node) {
        port(node); // validates the name
        changed.set(true);
        script.run("kill", node);
    }

    /** Starts a killed node again on its datadir; returns once it accepts connections. */
    public void revive(String node) {
        port(node);
        changed.set(true);
        script.run("revive", node);
    }

    /**
     * Fails over to replica {@code replica}: stops the primary if it still runs, promotes the replica and
     * re-points the other replicas to it; returns once it takes writes. The next reset rebuilds the original
     * topology.
     */
    public void promote(int replica) {
        changed.set(true);
        script.run("promote", replica(checkReplica(replica)));
    }

    /**
     * Brings the cluster back to a clean, in-sync state with an empty application database. Only
     * drops and recreates the database and syncs when no control was used since the last reset.
     */
    void reset() {
        if (!changed.get()) {
            try {
                rootUpdate(PRIMARY, "DROP DATABASE IF EXISTS `" + database + "`");
                rootUpdate(PRIMARY, "CREATE DATABASE `" + database + "` CHARACTER SET utf8mb4");
                for (int i = 1; i <= replicaCount; i++) {
                    sync(i);
                }
                return;
            } catch (SQLException | RuntimeException e) {
                // something outside our controls broke the cluster: let the script repair it
            }
        }
        script.run("reset");
        changed.set(false);
    }

    // ------------------------------------------------------------------ internals

    private static int replicaNumber(String node) {
        if (node == null || !node.startsWith("replica")) {
            throw new IllegalArgumentException("unknown node '" + node + "': expected primary or replicaN");
        }
        try {
            return Integer.parseInt(node.substring("replica".length()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unknown node '" + node + "': expected primary or replicaN", e);
        }
    }

    private int checkReplica(int replica) {
        if (replica < 1 || replica > replicaCount) {
            throw new IllegalArgumentException("no replica " + replica + ": replicas are numbered 1.." + replicaCount);
        }
        return replica;
    }

    private Connection connectAsRoot(String node) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", "root");
        properties.setProperty("password", "");
        properties.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_MILLIS));
        return DriverManager.getConnection(JdbcDriver.MARIADB.url(port(node), ""), properties);
    }

    private String rootQuery(String node, String sql) throws SQLException {
        try (Connection connection = connectAsRoot(node);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    private void rootUpdate(String node, String sql) throws SQLException {
        try (Connection connection = connectAsRoot(node); Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    @Override
    public String toString() {
        return "Cluster[primary=127.0.0.1:" + primaryPort + ", replicas=" + replicaPorts() + "]";
    }
}
