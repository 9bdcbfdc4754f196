package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Which server answers, and in which role. The primary's identity ({@link #primaryIdentity}) changes when
 * another server takes over (a failover): MariaDB and MySQL report another {@code server_id} once that server
 * is writable, PostgreSQL a new timeline (the first field of the current WAL file's name) or another address.
 * A listed replica acts as the primary ({@link #actsAsPrimary}) when PostgreSQL says it is not in recovery,
 * or when a MariaDB or MySQL server is writable ({@code read_only=OFF}) and is the very server the primary URL
 * leads to (a writable replica that still replicates is not enough).
 */
public final class ServerRole {

    private ServerRole() {
    }

    /**
     * Whether the server behind {@code c} takes writes: MariaDB and MySQL {@code read_only=OFF}, PostgreSQL not in
     * recovery, other databases as {@link java.sql.DatabaseMetaData#isReadOnly()} says. One query; for reads that
     * must reach the primary while a failover may be under way, never on the normal routing path.
     */
    public static boolean isWritable(Connection c) throws SQLException {
        java.sql.DatabaseMetaData meta = c.getMetaData();
        String product = meta.getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
        if (product.contains("postgresql")) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select pg_is_in_recovery()")) {
                return rs.next() && !rs.getBoolean(1);
            }
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select @@read_only")) {
                return rs.next() && !rs.getBoolean(1);
            }
        }
        return !meta.isReadOnly();
    }

    /**
     * The primary's identity, or null when no primary answers: the database has none (H2), or the server is
     * read-only (MariaDB, MySQL), as a replica is that a multi-host primary URL reaches after the primary died and
     * before the replica is promoted. Such a replica may not have applied every write yet (a promotion catches it
     * up before making it writable), so it is not taken for the new primary. On PostgreSQL a standby cannot
     * answer: {@code pg_walfile_name} fails during recovery.
     */
    public static String primaryIdentity(Connection c, GtidReader.Flavour flavour) throws SQLException {
        String identity = switch (flavour) {
            case MARIADB, MYSQL -> GtidReader.value(c,
                    "select if(@@read_only, null, concat(@@server_id, '@', @@hostname, ':', @@port))");
            case POSTGRESQL -> GtidReader.value(c, "select 'timeline ' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)"
                    + " || ' at ' || coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port(), 0)");
            default -> null;
        };
        return identity == null || identity.isEmpty() ? null : identity;
    }

    /**
     * Why replica connection {@code c} answers as the primary, or null when it is a replica.
     *
     * @param primaryIdentity the primary's identity as last seen, or null
     */
    public static String actsAsPrimary(Connection c, GtidReader.Flavour flavour, String primaryIdentity) throws SQLException {
        switch (flavour) {
            case POSTGRESQL:
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select pg_is_in_recovery()")) {
                    return rs.next() && !rs.getBoolean(1) ? "the server is the primary now: pg_is_in_recovery() is false"
                            : null;
                }
            case MARIADB:
            case MYSQL:
                if (primaryIdentity == null) {
                    return null;
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "select @@read_only, concat(@@server_id, '@', @@hostname, ':', @@port)")) {
                    if (rs.next() && !rs.getBoolean(1) && primaryIdentity.equals(rs.getString(2))) {
                        return "the server is the primary now: read_only=OFF and the primary URL leads to it ("
                                + primaryIdentity + ")";
                    }
                    return null;
                }
            default:
                return null;
        }
    }
}
