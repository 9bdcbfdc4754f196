package io.rwsplit.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Waits until the cluster's replicas applied everything the primary committed so far (MariaDB GTIDs). */
public final class Replication {

    /** Upper bound of one wait; a replica delayed by {@code cluster.sh delay} needs its delay plus a little. */
    private static final int TIMEOUT_SECONDS = 30;

    private Replication() {
    }

    public static void awaitReplicas(Database db) {
        String position = query(db.primaryUrl(), db, "select @@gtid_binlog_pos");
        for (String replica : db.replicaUrls()) {
            try (Connection c = DriverManager.getConnection(replica, db.user(), db.password());
                 PreparedStatement wait = c.prepareStatement("select master_gtid_wait(?, ?)")) {
                wait.setString(1, position);
                wait.setInt(2, TIMEOUT_SECONDS);
                try (ResultSet rs = wait.executeQuery()) {
                    if (!rs.next() || rs.getInt(1) != 0) {
                        throw new IllegalStateException(replica + " did not reach GTID " + position
                                + " within " + TIMEOUT_SECONDS + " s");
                    }
                }
            }
            catch (SQLException e) {
                throw new IllegalStateException("cannot wait for " + replica + ": " + e.getMessage(), e);
            }
        }
    }

    static String query(String url, Database db, String sql) {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot run '" + sql + "' on " + url + ": " + e.getMessage(), e);
        }
    }
}
