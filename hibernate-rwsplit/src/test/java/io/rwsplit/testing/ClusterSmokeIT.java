package io.rwsplit.testing;

import static io.rwsplit.testing.Cluster.PRIMARY;
import static io.rwsplit.testing.Cluster.replica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Proves the cluster behaves as the routing tests will assume. */
@ReplicatedCluster
class ClusterSmokeIT {

    /** MariaDB's ER_OPTION_PREVENTS_STATEMENT, raised for writes under read_only. */
    private static final int READ_ONLY_ERROR = 1290;

    private final Cluster cluster;

    ClusterSmokeIT(Cluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void primaryAndReplicasReportDistinctServerIds() throws SQLException {
        Set<Integer> serverIds = new HashSet<>();
        for (String node : cluster.nodes()) {
            serverIds.add(cluster.queryInt(node, "SELECT @@server_id"));
        }
        assertEquals(cluster.replicaCount() + 1, serverIds.size(), "server ids " + serverIds);
        assertEquals(1, cluster.queryInt(PRIMARY, "SELECT @@server_id"));
    }

    @Test
    void replicaRejectsWritesFromApplicationUser() throws SQLException {
        cluster.update(PRIMARY, "CREATE TABLE item (id INT PRIMARY KEY)");
        cluster.sync();
        for (int replica = 1; replica <= cluster.replicaCount(); replica++) {
            String node = replica(replica);
            SQLException rejected = assertThrows(SQLException.class,
                    () -> cluster.update(node, "INSERT INTO item VALUES (1)"));
            assertEquals(READ_ONLY_ERROR, rejected.getErrorCode(), rejected.getMessage());
            assertEquals(0, cluster.queryInt(node, "SELECT COUNT(*) FROM item"));
        }
    }

    @Test
    void writeOnPrimaryReplicatesToBothReplicas() throws SQLException {
        cluster.update(PRIMARY, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20))");
        cluster.update(PRIMARY, "INSERT INTO item VALUES (1, 'écrit')");
        cluster.sync();
        for (int replica = 1; replica <= cluster.replicaCount(); replica++) {
            assertEquals("écrit", cluster.queryString(replica(replica), "SELECT name FROM item WHERE id = 1"));
        }
    }

    @Test
    void delayedReplicaShowsOldRowRightAfterCommit() throws SQLException {
        cluster.update(PRIMARY, "CREATE TABLE item (id INT PRIMARY KEY, version INT)");
        cluster.update(PRIMARY, "INSERT INTO item VALUES (1, 1)");
        cluster.sync();
        cluster.delay(1, 2);

        cluster.update(PRIMARY, "UPDATE item SET version = 2 WHERE id = 1");

        assertEquals(1, cluster.queryInt(replica(1), "SELECT version FROM item WHERE id = 1"));
        cluster.sync(2);
        assertEquals(2, cluster.queryInt(replica(2), "SELECT version FROM item WHERE id = 1"));
        cluster.sync();
        assertEquals(2, cluster.queryInt(replica(1), "SELECT version FROM item WHERE id = 1"));
    }

    @Test
    void pausedReplicaFallsBehind() throws SQLException {
        cluster.update(PRIMARY, "CREATE TABLE item (id INT PRIMARY KEY)");
        cluster.sync();
        cluster.pause(1);

        cluster.update(PRIMARY, "INSERT INTO item VALUES (1)");
        cluster.sync(2);

        assertEquals(1, cluster.queryInt(replica(2), "SELECT COUNT(*) FROM item"));
        assertEquals(0, cluster.queryInt(replica(1), "SELECT COUNT(*) FROM item"));
        assertNotEquals(cluster.queryString(PRIMARY, "SELECT @@gtid_binlog_pos"),
                cluster.queryString(replica(1), "SELECT @@gtid_slave_pos"));

        cluster.resume(1);
        cluster.sync();
        assertEquals(1, cluster.queryInt(replica(1), "SELECT COUNT(*) FROM item"));
    }

    @Test
    void killedReplicaCanBeRevived() throws SQLException {
        cluster.update(PRIMARY, "CREATE TABLE item (id INT PRIMARY KEY)");
        cluster.sync();
        cluster.kill(replica(1));
        assertThrows(SQLException.class, () -> cluster.queryInt(replica(1), "SELECT 1"));

        cluster.update(PRIMARY, "INSERT INTO item VALUES (1)");
        cluster.revive(replica(1));
        cluster.sync();

        assertEquals(1, cluster.queryInt(replica(1), "SELECT COUNT(*) FROM item"));
    }

    @Test
    void bothDriversConnectToEveryNode() throws SQLException {
        for (String node : cluster.nodes()) {
            for (Cluster.JdbcDriver driver : Cluster.JdbcDriver.values()) {
                String url = cluster.jdbcUrl(node, driver);
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
