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

    /**
     * MariaDB's applied GTIDs as the replica's own table holds them: per replication domain the row written last
     * ({@code sub_id} grows with each applied transaction). The table is written inside each replicated transaction,
     * so its rows become visible with the transaction's rows, never after them.
     */
    static final String APPLIED_TABLE = "select group_concat(concat(g.domain_id, '-', g.server_id, '-', g.seq_no))"
            + " from mysql.gtid_slave_pos g where g.sub_id = (select max(h.sub_id) from mysql.gtid_slave_pos h"
            + " where h.domain_id = g.domain_id)";
    /**
     * Whether {@link #APPLIED_TABLE} holds every applied GTID (no {@code gtid_pos_auto_engines} spreading them over
     * other tables), is transactional, and may be read by this user: the schema shows a table only to a user with
     * a privilege on it.
     */
    static final String APPLIED_TABLE_USABLE = "select @@global.gtid_pos_auto_engines, engine from"
            + " information_schema.tables where table_schema = 'mysql' and table_name = 'gtid_slave_pos'";

    /** Whether {@link #visible} may read MariaDB's table: unknown (null) until first asked. */
    private volatile Boolean appliedTable;

    /** The replica's applied position, or null when the database has none. */
    public GtidPosition replica(Connection c) throws SQLException {
        return switch (flavour(c)) {
            case MARIADB -> GtidPosition.parseMariaDb(value(c, "select @@gtid_slave_pos"));
            case MYSQL -> GtidPosition.parseMySql(value(c, "select @@global.gtid_executed"));
            case POSTGRESQL -> lsn(c, "select pg_last_wal_replay_lsn()");
            default -> null;
        };
    }

    /**
     * As {@link #replica}, read so that the position cannot lag a row the connection can already see: on MariaDB from
     * the table {@code mysql.gtid_slave_pos} when this user may read it (and no {@code gtid_pos_auto_engines} spreads
     * it over other tables), in the connection's own snapshot inside a transaction; {@code @@gtid_slave_pos} moves
     * only after the commit that made the rows visible. Elsewhere, and where the table cannot be read (asked once),
     * the same as {@link #replica}.
     */
    public GtidPosition visible(Connection c) throws SQLException {
        if (flavour(c) != Flavour.MARIADB || !appliedTable(c)) {
            return replica(c);
        }
        String text = value(c, APPLIED_TABLE);
        return text.isEmpty() ? replica(c) : GtidPosition.parseMariaDb(text);
    }

    /** Whether {@link #visible} reads MariaDB's GTID table through connections like {@code c} (asked once). */
    public boolean appliedTable(Connection c) {
        Boolean usable = appliedTable;
        if (usable == null) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(APPLIED_TABLE_USABLE)) {
                // no row: this user has no privilege on the table
                usable = rs.next() && (rs.getString(1) == null || rs.getString(1).isBlank())
                        && "InnoDB".equalsIgnoreCase(rs.getString(2));
            }
            catch (SQLException older) {   // a server without the variable (before 10.3): the one table is older
                usable = false;
            }
            appliedTable = usable;
        }
        return usable;
    }

    /** The primary's position, or null when the database has none. */
    public GtidPosition primary(Connection c) throws SQLException {
        return switch (flavour(c)) {
            case MARIADB -> GtidPosition.parseMariaDb(value(c, "select @@gtid_current_pos"));
            case MYSQL -> GtidPosition.parseMySql(value(c, "select @@global.gtid_executed"));
            case POSTGRESQL -> primaryLsn(c, "pg_current_wal_lsn()", false);
            default -> null;
        };
    }

    /**
     * {@link #primary}, read when a failover is seen, for the base that writes committed before then require: on
     * PostgreSQL the WAL insert position (with its timeline) as a standby can reach it
     * ({@link LsnPosition#asReplayPosition}), since a commit made with {@code synchronous_commit=off} may not be
     * written yet (its token holds the insert position, and the written one may lack it).
     */
    public GtidPosition primaryAtFailover(Connection c) throws SQLException {
        return flavour(c) == Flavour.POSTGRESQL ? primaryLsn(c, "pg_current_wal_insert_lsn()", true) : primary(c);
    }

    /**
     * A PostgreSQL primary's WAL position {@code lsn} (a SQL expression) with its timeline (which says that the
     * server's own writes are its own, not an older primary's: {@link GtidPosition#holdsAfterPromotion}), as a standby
     * can reach it when {@code replayable}; null when the server answers none.
     */
    private static GtidPosition primaryLsn(Connection c, String lsn, boolean replayable) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select " + lsn + ", " + timelineOf(lsn)
                + (replayable ? ", current_setting('wal_block_size')" : ""))) {
            String text = rs.next() ? rs.getString(1) : null;
            if (text == null || text.isEmpty()) {
                return null;
            }
            LsnPosition position = onTimeline(LsnPosition.parse(text), rs.getString(2));
            return replayable ? position.asReplayPosition(Integer.parseInt(rs.getString(3).trim())) : position;
        }
    }

    /**
     * A SQL expression: the timeline of a primary's WAL at the LSN the expression {@code lsn} gives, eight hexadecimal
     * digits (the first field of the WAL file's name; it fails during recovery).
     */
    public static String timelineOf(String lsn) {
        return "substr(pg_walfile_name(" + lsn + "), 1, 8)";
    }

    /**
     * {@code position} on the timeline {@code hex} (eight hexadecimal digits, as {@link #timelineOf} answers);
     * {@code position} itself when {@code hex} is null or no timeline.
     */
    public static LsnPosition onTimeline(LsnPosition position, String hex) {
        if (hex == null) {
            return position;
        }
        try {
            return position.onTimeline(Long.parseUnsignedLong(hex.trim(), 16));
        }
        catch (IllegalArgumentException notATimeline) {   // NumberFormatException too
            return position;
        }
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
