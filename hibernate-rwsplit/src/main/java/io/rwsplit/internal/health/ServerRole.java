package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Which server answers, and in which role. The primary's identity ({@link #primaryIdentity}) changes when
 * another server takes over (a failover): MariaDB and MySQL report another {@code server_id} once that server
 * is writable, PostgreSQL a new timeline (the first field of the current WAL file's name) or another address.
 * A listed replica acts as the primary ({@link #roleOf}) when PostgreSQL says it is not in recovery,
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
     * What a listed replica is now, as its probe sees it: the primary (a failover promoted it), a replica that accepts
     * writes, or a read-only replica.
     *
     * @param promotedBecause why it is taken for the primary now, or null
     * @param acceptsWrites   whether it takes writes ({@code read_only=OFF} on MariaDB and MySQL; a promoted server)
     */
    public record Role(String promotedBecause, boolean acceptsWrites) {
        static final Role READ_ONLY = new Role(null, false);
        static final Role WRITABLE_REPLICA = new Role(null, true);
    }

    /**
     * The role of the listed replica behind {@code c}: on PostgreSQL the primary when not in recovery (a standby cannot
     * take writes); on MariaDB and MySQL the primary when it is writable and the very server the primary URL leads to
     * ({@code primaryIdentity}), a writable replica when it is writable but another server (it still replicates: a
     * statement that reached it would write there), else read-only. One query.
     */
    public static Role roleOf(Connection c, GtidReader.Flavour flavour, String primaryIdentity) throws SQLException {
        switch (flavour) {
            case POSTGRESQL:
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select pg_is_in_recovery()")) {
                    return rs.next() && !rs.getBoolean(1)
                            ? new Role("the server is the primary now: pg_is_in_recovery() is false", true) : Role.READ_ONLY;
                }
            case MARIADB:
            case MYSQL:
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "select @@read_only, concat(@@server_id, '@', @@hostname, ':', @@port)")) {
                    if (!rs.next() || rs.getBoolean(1)) {
                        return Role.READ_ONLY;
                    }
                    if (primaryIdentity != null && primaryIdentity.equals(rs.getString(2))) {
                        return new Role("the server is the primary now: read_only=OFF and the primary URL leads to it ("
                                + primaryIdentity + ")", true);
                    }
                    return Role.WRITABLE_REPLICA;
                }
            default:
                return Role.READ_ONLY;
        }
    }
}
