package io.rwsplit.cdi;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Two in-memory H2 databases with the same table and different rows: person 1 is "primary-alice" on the
 * primary and "replica-alice" on the replica, so every result tells which server answered.
 */
final class TestDatabases implements AutoCloseable {

    final String primaryUrl;
    final String replicaUrl;
    private final Connection keepPrimary;
    private final Connection keepReplica;

    TestDatabases() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        primaryUrl = "jdbc:h2:mem:cdi_primary_" + id + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=2000";
        replicaUrl = "jdbc:h2:mem:cdi_replica_" + id + ";DB_CLOSE_DELAY=-1";
        try {
            keepPrimary = seed(primaryUrl, "primary");
            keepReplica = seed(replicaUrl, "replica");
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Connection seed(String url, String who) throws SQLException {
        Connection c = DriverManager.getConnection(url, "sa", "");
        try (Statement s = c.createStatement()) {
            s.execute("create table person (id bigint primary key, name varchar(100))");
            s.execute("insert into person (id, name) values (1, '" + who + "-alice')");
            s.execute("insert into person (id, name) values (2, '" + who + "-bob')");
        }
        return c;
    }

    /** The first column of the first row, or null. */
    String query(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        for (Connection c : new Connection[] {keepPrimary, keepReplica}) {
            try (Statement s = c.createStatement()) {
                s.execute("shutdown");
            }
            catch (SQLException ignored) {
                // already gone
            }
        }
    }
}
