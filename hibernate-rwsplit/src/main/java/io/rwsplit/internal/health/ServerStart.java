package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Which run of a server a connection reaches, as the server itself says: PostgreSQL {@code pg_postmaster_start_time()}
 * to the microsecond; MariaDB and MySQL the time now less {@code Uptime} (whole seconds) and the connection's
 * {@code CONNECTION_ID()}, which only grows within one run and starts again from 1 after a restart. A server whose
 * run changed restarted (or was replaced): what it told before is not true of it any more, however fast it came back.
 * One query; asked only on a physical connection's first use.
 */
public final class ServerStart {

    /** One reading: the start in epoch microseconds, and for MariaDB/MySQL the connection id (else 0). */
    public record Run(long startedMicros, long connectionId, boolean exact) {

        /** Readings of one MariaDB/MySQL run may differ this much (whole seconds of uptime, a clock tick between). */
        static final long TOLERANCE_MICROS = 2_000_000;

        /** Whether {@code later}, read after this one, is of another run of the server. */
        public boolean restartedBy(Run later) {
            if (exact) {
                return later.startedMicros != startedMicros;
            }
            return Math.abs(later.startedMicros - startedMicros) > TOLERANCE_MICROS || later.connectionId < connectionId;
        }

        /** This reading with the larger connection id of the two (the highest seen in the run). */
        public Run highest(Run other) {
            return other.connectionId > connectionId ? other : this;
        }
    }

    private static final String POSTGRESQL = "select (extract(epoch from pg_postmaster_start_time()) * 1000000)::bigint, 0";
    private static final String MARIADB = "select unix_timestamp() - variable_value, connection_id()"
            + " from information_schema.global_status where variable_name = 'UPTIME'";
    private static final String MYSQL = "select unix_timestamp() - variable_value, connection_id()"
            + " from performance_schema.global_status where variable_name = 'Uptime'";

    private ServerStart() {
    }

    /** The run of the server behind {@code c}, or null when the database cannot say. */
    public static Run of(Connection c) throws SQLException {
        String product = String.valueOf(c.getMetaData().getDatabaseProductName()).toLowerCase(Locale.ROOT);
        String version = String.valueOf(c.getMetaData().getDatabaseProductVersion()).toLowerCase(Locale.ROOT);
        boolean postgres = product.contains("postgresql");
        String sql = postgres ? POSTGRESQL
                : product.contains("mariadb") || version.contains("mariadb") ? MARIADB
                : product.contains("mysql") ? MYSQL : null;
        if (sql == null) {
            return null;
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                return null;
            }
            long started = rs.getLong(1);
            return new Run(postgres ? started : started * 1_000_000, rs.getLong(2), postgres);
        }
    }
}
