package io.rwsplit.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;

/**
 * The replicated MariaDB cluster of {@code scripts/cluster.sh}: GTID replication, read-only replicas, server ids
 * 1 (the primary), 2, 3, ... JDBC helpers use the MariaDB driver; {@link #jdbcUrl(String, JdbcDriver)} gives
 * URLs for mysql-connector-j too. {@link #sql(String, String)} runs as root; tab-separated rows.
 */
public final class MariaDbCluster extends TestCluster {

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

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    MariaDbCluster(ClusterScript script, Map<String, String> info) {
        super(script, info);
    }

    @Override
    public Database kind() {
        return Database.MARIADB;
    }

    /** {@code jdbc:mariadb://127.0.0.1:PORT/rwsplit} */
    @Override
    public String jdbcUrl(String node) {
        return jdbcUrl(node, JdbcDriver.MARIADB);
    }

    public String jdbcUrl(String node, JdbcDriver driver) {
        return driver.url(port(node), database());
    }

    /** {@code jdbc:mysql://127.0.0.1:PORT/rwsplit?...} for mysql-connector-j. */
    public String mysqlUrl(String node) {
        return jdbcUrl(node, JdbcDriver.MYSQL);
    }

    @Override
    public void sync(int replica) {
        try {
            String gtid = rootQuery(PRIMARY, "SELECT @@gtid_binlog_pos");
            String result = rootQuery(replica(checkReplica(replica)),
                    "SELECT MASTER_GTID_WAIT('" + gtid + "', " + SYNC_TIMEOUT_SECONDS + ")");
            if (!"0".equals(result)) {
                throw new IllegalStateException(replica(replica) + " did not apply primary position '" + gtid
                        + "' within " + SYNC_TIMEOUT_SECONDS + "s");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not sync " + replica(replica), e);
        }
    }

    @Override
    void recreateDatabase() throws SQLException {
        rootUpdate(PRIMARY, "DROP DATABASE IF EXISTS `" + database() + "`");
        rootUpdate(PRIMARY, "CREATE DATABASE `" + database() + "` CHARACTER SET utf8mb4");
    }

    @Override
    Properties connectionProperties(String as, String secret) {
        Properties properties = new Properties();
        properties.setProperty("user", as);
        properties.setProperty("password", secret);
        properties.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_MILLIS));
        return properties;
    }

    private Connection connectAsRoot(String node) throws SQLException {
        return DriverManager.getConnection(JdbcDriver.MARIADB.url(port(node), ""), connectionProperties("root", ""));
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
}
