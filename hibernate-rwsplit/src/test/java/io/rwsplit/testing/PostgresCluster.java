package io.rwsplit.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The replicated PostgreSQL cluster of {@code scripts/pg-cluster.sh}: a primary and hot standbys (streaming
 * replication). JDBC helpers use pgjdbc; {@link #sql(String, String)} runs as the superuser on the application
 * database, {@code |}-separated rows.
 */
public final class PostgresCluster extends TestCluster {

    private static final long SYNC_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(SYNC_TIMEOUT_SECONDS);
    private static final String SUPERUSER = "postgres";

    PostgresCluster(ClusterScript script, Map<String, String> info) {
        super(script, info);
    }

    @Override
    public Database kind() {
        return Database.POSTGRESQL;
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/rwsplit} */
    @Override
    public String jdbcUrl(String node) {
        return url(node, database());
    }

    @Override
    public void sync(int replica) {
        try {
            awaitReplay(checkReplica(replica), superuserQuery(PRIMARY, "select pg_current_wal_lsn()::text"));
        } catch (SQLException e) {
            throw new IllegalStateException("could not sync " + replica(replica), e);
        }
    }

    @Override
    public void sync() {
        try {
            String lsn = superuserQuery(PRIMARY, "select pg_current_wal_lsn()::text");
            for (int i = 1; i <= replicaCount(); i++) {
                awaitReplay(i, lsn);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not sync the standbys", e);
        }
    }

    private void awaitReplay(int replica, String lsn) throws SQLException {
        long deadline = System.nanoTime() + SYNC_TIMEOUT_NANOS;
        String sql = "select pg_last_wal_replay_lsn() >= '" + lsn + "'::pg_lsn";
        try (Connection c = connectAsSuperuser(replica(replica)); Statement s = c.createStatement()) {
            while (true) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(replica(replica) + " did not replay up to " + lsn + " within "
                            + SYNC_TIMEOUT_SECONDS + "s");
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

    @Override
    void recreateDatabase() throws SQLException {
        try (Connection c = connectAsSuperuser(PRIMARY); Statement s = c.createStatement()) {
            s.executeUpdate("drop database if exists " + database() + " with (force)");
            s.executeUpdate("create database " + database() + " owner " + user() + " encoding 'UTF8'");
        }
    }

    @Override
    Properties connectionProperties(String as, String secret) {
        Properties properties = new Properties();
        properties.setProperty("user", as);
        properties.setProperty("password", secret);
        properties.setProperty("connectTimeout", "5"); // seconds
        return properties;
    }

    private String url(String node, String db) {
        return "jdbc:postgresql://127.0.0.1:" + port(node) + "/" + db;
    }

    private Connection connectAsSuperuser(String node) throws SQLException {
        return DriverManager.getConnection(url(node, "postgres"), connectionProperties(SUPERUSER, ""));
    }

    private String superuserQuery(String node, String sql) throws SQLException {
        try (Connection c = connectAsSuperuser(node); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
