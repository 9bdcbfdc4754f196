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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The running replicated PostgreSQL cluster ({@code scripts/pg-cluster.sh}), as seen by a test: addresses,
 * credentials, JDBC helpers (pgjdbc, as the application user) and controls that take effect before they
 * return. Nodes are {@value #PRIMARY} and {@code replica1}, {@code replica2}, ... (hot standbys).
 */
public final class PostgresCluster {

    public static final String PRIMARY = "primary";

    private static final long SYNC_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final String SUPERUSER = "postgres";

    private final ClusterScript script;
    private final int primaryPort;
    private final int replicaCount;
    private final String database;
    private final String user;
    private final String password;
    private final AtomicBoolean changed = new AtomicBoolean(true);

    private PostgresCluster(ClusterScript script, Map<String, String> info) {
        this.script = script;
        this.primaryPort = Integer.parseInt(required(info, "BASE_PORT"));
        this.replicaCount = Integer.parseInt(required(info, "REPLICAS"));
        this.database = required(info, "DATABASE");
        this.user = required(info, "USER");
        this.password = required(info, "PASSWORD");
    }

    static PostgresCluster describedBy(ClusterScript script) {
        Map<String, String> info = new HashMap<>();
        for (String line : script.run("info").split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                info.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return new PostgresCluster(script, info);
    }

    private static String required(Map<String, String> info, String key) {
        String value = info.get(key);
        if (value == null) {
            throw new IllegalStateException("pg-cluster.sh info did not report " + key + ": " + info);
        }
        return value;
    }

    // ------------------------------------------------------------------ topology

    public static String replica(int replica) {
        return "replica" + replica;
    }

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

    public int port(String node) {
        if (PRIMARY.equals(node)) {
            return primaryPort;
        }
        return primaryPort + checkReplica(replicaNumber(node));
    }

    public String database() {
        return database;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/rwsplit} */
    public String jdbcUrl(String node) {
        return "jdbc:postgresql://127.0.0.1:" + port(node) + "/" + database;
    }

    /** The standbys' URLs, separated by spaces: a value for {@code hibernate.rwsplit.replicas}. */
    public String replicaUrls() {
        StringBuilder urls = new StringBuilder();
        for (int i = 1; i <= replicaCount; i++) {
            urls.append(i > 1 ? " " : "").append(jdbcUrl(replica(i)));
        }
        return urls.toString();
    }

    // ------------------------------------------------------------------ JDBC helpers

    /** A new connection to the node as the application user. */
    public Connection connect(String node) throws SQLException {
        return connect(node, user, password, database);
    }

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

    public String queryString(String node, String sql) throws SQLException {
        try (Connection connection = connect(node);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new SQLException("no row from " + node + " for: " + sql);
            }
            return rows.getString(1);
        }
    }

    /** Runs DDL or DML as the application user (autocommit) and returns the update count. */
    public int update(String node, String sql) throws SQLException {
        try (Connection connection = connect(node); Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        }
    }

    // ------------------------------------------------------------------ controls

    /** Runs SQL as the superuser on a node through the script; {@code |}-separated rows without header. */
    public String sql(String node, String sql) {
        changed.set(true);
        return script.run("sql", node, sql);
    }

    /** Waits until every standby replayed everything the primary has written. */
    public void sync() {
        try {
            String lsn = superuserQuery(PRIMARY, "select pg_current_wal_lsn()::text");
            for (int i = 1; i <= replicaCount; i++) {
                awaitReplay(i, lsn);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not sync the standbys", e);
        }
    }

    private void awaitReplay(int replica, String lsn) throws SQLException {
        long deadline = System.nanoTime() + SYNC_TIMEOUT_NANOS;
        String sql = "select pg_last_wal_replay_lsn() >= '" + lsn + "'::pg_lsn";
        try (Connection c = connect(replica(replica), SUPERUSER, "", "postgres"); Statement s = c.createStatement()) {
            while (true) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(replica(replica) + " did not replay up to " + lsn + " within 30s");
                }
                try {
                    Thread.sleep(5); // PostgreSQL 15 has no server-side wait for an LSN: polling is the only signal
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
    }

    /** Makes the standby apply each commit {@code seconds} after it committed on the primary. */
    public void delay(int replica, int seconds) {
        changed.set(true);
        script.run("delay", replica(checkReplica(replica)), Integer.toString(seconds));
    }

    /** Pauses WAL replay on the standby: it keeps receiving WAL but applies none. */
    public void pause(int replica) {
        changed.set(true);
        script.run("pause", replica(checkReplica(replica)));
    }

    public void resume(int replica) {
        changed.set(true);
        script.run("resume", replica(checkReplica(replica)));
    }

    /** SIGKILLs a node's server and its backends; returns once they are gone. */
    public void kill(String node) {
        port(node);
        changed.set(true);
        script.run("kill", node);
    }

    public void revive(String node) {
        port(node);
        changed.set(true);
        script.run("revive", node);
    }

    /**
     * Fails over to standby {@code replica}: stops the primary if it still runs, promotes the standby and
     * re-points the other standbys to it; returns once it takes writes. The next reset rebuilds the original
     * topology.
     */
    public void promote(int replica) {
        changed.set(true);
        script.run("promote", replica(checkReplica(replica)));
    }

    /** A clean, in-sync cluster with an empty application database. */
    void reset() {
        if (!changed.get()) {
            try {
                superuserUpdate(PRIMARY, "drop database if exists " + database + " with (force)");
                superuserUpdate(PRIMARY, "create database " + database + " owner " + user + " encoding 'UTF8'");
                sync();
                return;
            } catch (SQLException | RuntimeException e) {
                // something outside our controls broke the cluster: let the script repair it
            }
        }
        script.run("reset");
        changed.set(false);
    }

    // ------------------------------------------------------------------ internals

    private Connection connect(String node, String as, String secret, String db) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", as);
        properties.setProperty("password", secret);
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port(node) + "/" + db, properties);
    }

    private String superuserQuery(String node, String sql) throws SQLException {
        try (Connection c = connect(node, SUPERUSER, "", "postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void superuserUpdate(String node, String sql) throws SQLException {
        try (Connection c = connect(node, SUPERUSER, "", "postgres"); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

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

    @Override
    public String toString() {
        return "PostgresCluster[primary=127.0.0.1:" + primaryPort + ", standbys=" + replicaCount + "]";
    }
}
