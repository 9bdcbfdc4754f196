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
import java.util.function.Function;

/**
 * A running replicated cluster of either {@link Database}, as seen by a test: addresses, credentials, JDBC
 * helpers (as the application user) and controls (delay, pause, freeze, kill, ...) that take effect before they return.
 *
 * <p>Nodes are named {@value #PRIMARY} and {@code replica1}, {@code replica2}, ... (see {@link #replica(int)});
 * replica numbers are 1-based. {@link #sql(String, String)} runs as the administrator through the script.
 * Obtain one by declaring a parameter of this type (or {@link MariaDbCluster}, {@link PostgresCluster}) in a
 * {@link ReplicatedCluster} test class.
 */
public abstract sealed class TestCluster permits MariaDbCluster, PostgresCluster {

    public static final String PRIMARY = "primary";

    protected static final int SYNC_TIMEOUT_SECONDS = 30;

    private final ClusterScript script;
    private final int primaryPort;
    private final int replicaCount;
    private final String database;
    private final String user;
    private final String password;
    /** Set when a test may have left the cluster other than clean and in sync. */
    private final AtomicBoolean changed = new AtomicBoolean(true);

    TestCluster(ClusterScript script, Map<String, String> info) {
        this.script = script;
        this.primaryPort = Integer.parseInt(required(info, "BASE_PORT"));
        this.replicaCount = Integer.parseInt(required(info, "REPLICAS"));
        this.database = required(info, "DATABASE");
        this.user = required(info, "USER");
        this.password = required(info, "PASSWORD");
    }

    /** Reads the topology of the cluster the script manages (it must have been started once). */
    static TestCluster describedBy(Database kind, ClusterScript script) {
        Map<String, String> info = new HashMap<>();
        for (String line : script.run("info").split("\n")) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                info.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return kind.describe(script, info);
    }

    private static String required(Map<String, String> info, String key) {
        String value = info.get(key);
        if (value == null) {
            throw new IllegalStateException("cluster script info did not report " + key + ": " + info);
        }
        return value;
    }

    /** Which database this cluster runs. */
    public abstract Database kind();

    // ------------------------------------------------------------------ topology

    /** {@code replica1}, {@code replica2}, ... */
    public static String replica(int replica) {
        return "replica" + replica;
    }

    /** The primary followed by every replica. */
    public List<String> nodes() {
        List<String> nodes = new ArrayList<>();
        nodes.add(PRIMARY);
        nodes.addAll(replicas());
        return Collections.unmodifiableList(nodes);
    }

    /** {@code replica1}, {@code replica2}, ... in that order. */
    public List<String> replicas() {
        List<String> replicas = new ArrayList<>();
        for (int i = 1; i <= replicaCount; i++) {
            replicas.add(replica(i));
        }
        return Collections.unmodifiableList(replicas);
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

    /** The node's URL for the database's own driver (MariaDB Connector/J or pgjdbc). */
    public abstract String jdbcUrl(String node);

    /** Every replica's URL, separated by spaces: a value for {@code hibernate.rwsplit.replicas}. */
    public String replicaUrls() {
        StringBuilder urls = new StringBuilder();
        for (String replica : replicas()) {
            urls.append(urls.length() == 0 ? "" : " ").append(jdbcUrl(replica));
        }
        return urls.toString();
    }

    /**
     * Every replica as {@code replicaN=URL}, one a line: a value for {@code hibernate.rwsplit.replicas} under
     * which the replicas carry the cluster's node names (in {@code RwSplit.health(...)}, for instance).
     */
    public String namedReplicaUrls() {
        return named(this::jdbcUrl);
    }

    /**
     * {@link #namedReplicaUrls()} with the application user and password in every URL (see
     * {@link #jdbcUrlWithCredentials(String)}): for tests that check that no password reaches a log line.
     */
    public String namedReplicaUrlsWithCredentials() {
        return named(this::jdbcUrlWithCredentials);
    }

    /** {@link #jdbcUrl(String)} plus {@code user=...&password=...}, options both drivers read from the URL. */
    public String jdbcUrlWithCredentials(String node) {
        String url = jdbcUrl(node);
        return url + (url.indexOf('?') < 0 ? '?' : '&') + "user=" + user + "&password=" + password;
    }

    private String named(Function<String, String> url) {
        StringBuilder urls = new StringBuilder();
        for (String replica : replicas()) {
            urls.append(urls.length() == 0 ? "" : "\n").append(replica).append('=').append(url.apply(replica));
        }
        return urls.toString();
    }

    // ------------------------------------------------------------------ JDBC helpers

    /** A new connection to the node as the application user. */
    public Connection connect(String node) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(node), connectionProperties(user, password));
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

    /**
     * The identity of the server a connection to {@code node} reaches ({@link Database#serverIdentity()}): what a
     * routed read selecting the same expression reports when that node answered it.
     */
    public int serverIdentity(String node) throws SQLException {
        return queryInt(node, "select " + kind().serverIdentity());
    }

    // ------------------------------------------------------------------ controls

    /** Runs SQL as the administrator on a node through the script; rows without header. */
    public String sql(String node, String sql) {
        changed.set(true); // the administrator can change anything, replication included
        return script.run("sql", node, sql);
    }

    /** Waits until every replica applied everything the primary has written. */
    public void sync() {
        for (int i = 1; i <= replicaCount; i++) {
            sync(i);
        }
    }

    /** Waits until one replica applied everything the primary has written. */
    public abstract void sync(int replica);

    /** Makes the replica apply each commit {@code seconds} after it was committed on the primary. */
    public void delay(int replica, int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("delay must be >= 0 seconds, got " + seconds);
        }
        changed.set(true);
        script.run("delay", replica(checkReplica(replica)), Integer.toString(seconds));
    }

    /** Stops applying on the replica: it keeps receiving changes but applies none. */
    public void pause(int replica) {
        changed.set(true);
        script.run("pause", replica(checkReplica(replica)));
    }

    /** Starts applying on the replica again. */
    public void resume(int replica) {
        changed.set(true);
        script.run("resume", replica(checkReplica(replica)));
    }

    /**
     * Stops the replica receiving changes (MariaDB: its IO thread; PostgreSQL: its WAL receiver, by an empty
     * {@code primary_conninfo}); it applies what it has. A write then reaches no detached replica, and a promotion
     * of one loses it. Undone by {@link #attach(int)} and by the reset before the next test.
     */
    public void detach(int replica) {
        changed.set(true);
        script.run("detach", replica(checkReplica(replica)));
    }

    /** Lets a detached replica receive changes again. */
    public void attach(int replica) {
        changed.set(true);
        script.run("attach", replica(checkReplica(replica)));
    }

    /**
     * SIGSTOPs the replica's server (for PostgreSQL the postmaster and all its children): it stops answering but
     * keeps its sockets open, like a paused VM, until {@link #thaw(int)} or the reset before the next test.
     */
    public void freeze(int replica) {
        changed.set(true);
        script.run("freeze", replica(checkReplica(replica)));
    }

    /** SIGCONTs a frozen replica's server: it answers again, its sockets intact. Harmless on one not frozen. */
    public void thaw(int replica) {
        changed.set(true);
        script.run("thaw", replica(checkReplica(replica)));
    }

    /** SIGKILLs a node's server; returns once it is gone. */
    public void kill(String node) {
        port(node); // validates the name
        changed.set(true);
        script.run("kill", node);
    }

    /** Starts a killed node again on its data directory; returns once it accepts connections. */
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
     * Brings the cluster back to a clean, in-sync state with an empty application database (the script's reset
     * thaws frozen servers and revives killed ones first). Only drops and recreates the database and syncs when no
     * control was used since the last reset.
     */
    void reset() {
        if (!changed.get()) {
            try {
                recreateDatabase();
                sync();
                return;
            } catch (SQLException | RuntimeException e) {
                // something outside our controls broke the cluster: let the script repair it
            }
        }
        script.run("reset");
        changed.set(false);
    }

    /** Stops the cluster's servers through the script. */
    void stop() {
        script.run("stop");
    }

    // ------------------------------------------------------------------ for the database's subclass

    /** Drops and recreates the application database on the primary, as the administrator. */
    abstract void recreateDatabase() throws SQLException;

    /** Driver properties for a connection as {@code as}, with a connect timeout. */
    abstract Properties connectionProperties(String as, String secret);

    int checkReplica(int replica) {
        if (replica < 1 || replica > replicaCount) {
            throw new IllegalArgumentException("no replica " + replica + ": replicas are numbered 1.." + replicaCount);
        }
        return replica;
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

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[primary=127.0.0.1:" + primaryPort + ", replicas=" + replicaPorts() + "]";
    }
}
