package io.rwsplit.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Waits until the cluster's replicas applied everything the primary committed so far (MariaDB GTIDs, PostgreSQL
 * replayed WAL positions).
 */
public final class Replication {

    /** Upper bound of one wait; a replica delayed by {@code cluster.sh delay} needs its delay plus a little. */
    private static final int TIMEOUT_SECONDS = 30;

    private Replication() {
    }

    public static void awaitReplicas(Database db) {
        if (db.postgres()) {
            awaitStandbys(db);
            return;
        }
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

    private static void awaitStandbys(Database db) {
        String lsn = query(db.primaryUrl(), db, "select pg_current_wal_lsn()::text");
        long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
        for (String standby : db.replicaUrls()) {
            try (Connection c = DriverManager.getConnection(standby, db.user(), db.password());
                 PreparedStatement replayed = c.prepareStatement("select pg_last_wal_replay_lsn() >= ?::pg_lsn")) {
                replayed.setString(1, lsn);
                while (true) {
                    try (ResultSet rs = replayed.executeQuery()) {
                        if (rs.next() && rs.getBoolean(1)) {
                            break;
                        }
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException(standby + " did not replay LSN " + lsn + " within "
                                + TIMEOUT_SECONDS + " s");
                    }
                    Thread.sleep(5);
                }
            }
            catch (SQLException e) {
                throw new IllegalStateException("cannot wait for " + standby + ": " + e.getMessage(), e);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + standby, e);
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
