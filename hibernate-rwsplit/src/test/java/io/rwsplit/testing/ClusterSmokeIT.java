package io.rwsplit.testing;

import static io.rwsplit.testing.TestCluster.PRIMARY;
import static io.rwsplit.testing.TestCluster.replica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** {@link ClusterContract} on MariaDB, plus server ids, GTID positions and both JDBC drivers. */
@ReplicatedCluster
class ClusterSmokeIT extends ClusterContract {

    /** MariaDB's ER_OPTION_PREVENTS_STATEMENT, raised for writes under read_only. */
    private static final int READ_ONLY_ERROR = 1290;

    private final MariaDbCluster mariadb;

    ClusterSmokeIT(MariaDbCluster cluster) {
        super(cluster);
        this.mariadb = cluster;
    }

    @Override
    void assertReadOnlyRefusal(SQLException refused) {
        assertEquals(READ_ONLY_ERROR, refused.getErrorCode(), refused.getMessage());
    }

    @Test
    void thePrimaryIsServerIdOneAndTheReplicasFollow() throws SQLException {
        for (int i = 0; i < cluster.nodes().size(); i++) {
            assertEquals(i + 1, cluster.serverIdentity(cluster.nodes().get(i)), cluster.nodes().get(i));
        }
    }

    @Test
    void pausedReplicaLagsInGtidPosition() throws SQLException {
        cluster.update(PRIMARY, "CREATE TABLE item (id INT PRIMARY KEY)");
        cluster.sync();
        cluster.pause(1);

        cluster.update(PRIMARY, "INSERT INTO item VALUES (1)");
        cluster.sync(2);

        assertNotEquals(cluster.queryString(PRIMARY, "SELECT @@gtid_binlog_pos"),
                cluster.queryString(replica(1), "SELECT @@gtid_slave_pos"));
        assertEquals(cluster.queryString(PRIMARY, "SELECT @@gtid_binlog_pos"),
                cluster.queryString(replica(2), "SELECT @@gtid_slave_pos"));
    }

    @Test
    void bothDriversConnectToEveryNode() throws SQLException {
        for (String node : cluster.nodes()) {
            for (MariaDbCluster.JdbcDriver driver : MariaDbCluster.JdbcDriver.values()) {
                String url = mariadb.jdbcUrl(node, driver);
                try (Connection connection = DriverManager.getConnection(url, cluster.user(), cluster.password())) {
                    assertEquals(node.equals(PRIMARY) ? 0 : 1, readOnly(connection), url);
                }
            }
        }
    }

    private static int readOnly(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT @@read_only")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
