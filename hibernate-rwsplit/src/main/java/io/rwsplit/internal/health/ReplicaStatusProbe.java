package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * {@code SHOW REPLICA STATUS}, or {@code SHOW SLAVE STATUS} on servers that do not know the former.
 * Reads MySQL 8 columns ({@code Seconds_Behind_Source}, {@code Replica_IO_Running},
 * {@code Replica_SQL_Running}) and MariaDB/older MySQL ones ({@code Seconds_Behind_Master},
 * {@code Slave_IO_Running}, {@code Slave_SQL_Running}). A stopped IO or SQL thread, a NULL lag or no
 * status row at all means broken replication, never lag 0. Resolution: one second. Needs the
 * {@code REPLICATION CLIENT} (MySQL) or {@code SLAVE MONITOR} (MariaDB) privilege.
 */
final class ReplicaStatusProbe implements LagProbe {

    private volatile boolean legacySyntax;

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        List<Map<String, String>> rows;
        if (!legacySyntax) {
            try {
                rows = rows(connection, "show replica status");
            }
            catch (SQLException e) {
                if (e.getSQLState() == null || !e.getSQLState().startsWith("42")) {
                    throw e;
                }
                legacySyntax = true;
                rows = rows(connection, "show slave status");
            }
        }
        else {
            rows = rows(connection, "show slave status");
        }
        return parse(rows);
    }

    /** The lag of the status rows (one per replication channel: the worst wins). */
    static LagSample parse(List<Map<String, String>> rows) {
        if (rows.isEmpty()) {
            return LagSample.broken("no replica status: the server is not replicating");
        }
        long worst = 0;
        for (Map<String, String> row : rows) {
            String io = column(row, "Replica_IO_Running", "Slave_IO_Running");
            String sql = column(row, "Replica_SQL_Running", "Slave_SQL_Running");
            if (!"Yes".equalsIgnoreCase(io)) {
                return LagSample.broken("replication IO thread is not running (" + io + ")" + error(row, "Last_IO_Error"));
            }
            if (!"Yes".equalsIgnoreCase(sql)) {
                return LagSample.broken("replication SQL thread is not running (" + sql + ")" + error(row, "Last_SQL_Error"));
            }
            String seconds = column(row, "Seconds_Behind_Source", "Seconds_Behind_Master");
            if (seconds == null) {
                return LagSample.broken("replication lag is unknown (Seconds_Behind is NULL)");
            }
            try {
                worst = Math.max(worst, Long.parseLong(seconds.trim()) * 1_000_000L);
            }
            catch (NumberFormatException e) {
                return LagSample.broken("unreadable Seconds_Behind value '" + seconds + "'");
            }
        }
        return LagSample.of(worst);
    }

    private static String column(Map<String, String> row, String name, String legacyName) {
        return row.containsKey(name) ? row.get(name) : row.get(legacyName);
    }

    private static String error(Map<String, String> row, String column) {
        String e = row.get(column);
        return e == null || e.isBlank() ? "" : ": " + e;
    }

    private static List<Map<String, String>> rows(Connection c, String sql) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, String> row = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.put(md.getColumnLabel(i), rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Override
    public String toString() {
        return "replica_status";
    }
}
