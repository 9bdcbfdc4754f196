package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.position.LsnPosition;

/**
 * Reads a server's replication position: MariaDB {@code @@gtid_slave_pos} on a replica and
 * {@code @@gtid_current_pos} on the primary, MySQL {@code @@global.gtid_executed} on both, PostgreSQL
 * {@code pg_last_wal_replay_lsn()} on a standby and {@code pg_current_wal_lsn()} (the WAL written so far,
 * which is what standbys can receive) on the primary. The flavour is detected on the first connection;
 * databases without positions (H2 in tests) yield {@code null}.
 */
public final class GtidReader {

    public enum Flavour { UNKNOWN, MARIADB, MYSQL, POSTGRESQL, NONE }

    /** PostgreSQL's default WAL page size, and the size of the header of a segment's first page (64-bit builds). */
    private static final long WAL_PAGE = 8192;
    private static final long LONG_PAGE_HEADER = 40;

    private volatile Flavour flavour = Flavour.UNKNOWN;

    /** The replica's applied position, or null when the database has none. */
    public GtidPosition replica(Connection c) throws SQLException {
        return switch (flavour(c)) {
            case MARIADB -> GtidPosition.parseMariaDb(value(c, "select @@gtid_slave_pos"));
            case MYSQL -> GtidPosition.parseMySql(value(c, "select @@global.gtid_executed"));
            case POSTGRESQL -> lsn(c, "select pg_last_wal_replay_lsn()");
            default -> null;
        };
    }

    /** The primary's position, or null when the database has none. */
    public GtidPosition primary(Connection c) throws SQLException {
        return switch (flavour(c)) {
            case MARIADB -> GtidPosition.parseMariaDb(value(c, "select @@gtid_current_pos"));
            case MYSQL -> GtidPosition.parseMySql(value(c, "select @@global.gtid_executed"));
            case POSTGRESQL -> lsn(c, "select pg_current_wal_lsn()");
            default -> null;
        };
    }

    /**
     * What a primary seen for the first time after a failover holds of the old primary's history: what it replicated
     * before its promotion, MariaDB {@code @@gtid_slave_pos} (its own later writes do not move it) and PostgreSQL
     * {@code pg_last_wal_replay_lsn()} (static after the promotion: the switch point of its timeline), else
     * {@code position} (a server that never replicated, a PostgreSQL primary restarted since, MySQL, whose GTID set
     * names each transaction's source exactly). Any user may read both.
     *
     * @param position the server's position now ({@link #primary})
     */
    public GtidPosition survived(Connection c, GtidPosition position) throws SQLException {
        GtidPosition replicated = switch (flavour(c)) {
            case MARIADB, POSTGRESQL -> replica(c);
            default -> null;
        };
        if (replicated == null || replicated.isEmpty()) {
            return position;
        }
        // a write position just past the long header that begins a WAL segment (40 bytes) is at the boundary
        // a standby stopped at: no record ends in between (the shortest one is 24 bytes)
        return replicated instanceof LsnPosition l && Long.remainderUnsigned(l.lsn(), WAL_PAGE) == 0
                ? LsnPosition.of(l.lsn() + LONG_PAGE_HEADER) : replicated;
    }

    /** An LSN, or null when the function returns NULL (the replay position of a server that is not a standby). */
    private static GtidPosition lsn(Connection c, String sql) throws SQLException {
        String text = value(c, sql);
        return text.isEmpty() ? null : GtidPosition.parsePostgres(text);
    }

    public Flavour flavour(Connection c) throws SQLException {
        Flavour f = flavour;
        if (f == Flavour.UNKNOWN) {
            String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
            if (product.contains("mariadb")) {
                f = Flavour.MARIADB;
            }
            else if (product.contains("mysql")) {
                f = value(c, "select @@version").toLowerCase(Locale.ROOT).contains("mariadb") ? Flavour.MARIADB : Flavour.MYSQL;
            }
            else if (product.contains("postgresql")) {
                f = Flavour.POSTGRESQL;
            }
            else {
                f = Flavour.NONE;
            }
            flavour = f;
        }
        return f;
    }

    static String value(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            String v = rs.next() ? rs.getString(1) : null;
            return v == null ? "" : v;
        }
    }
}
