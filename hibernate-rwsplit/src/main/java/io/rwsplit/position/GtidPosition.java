package io.rwsplit.position;

import java.util.Objects;

/**
 * An exact replication position: the set of transactions a server has applied, as reported by
 * MariaDB ({@code @@gtid_current_pos}, {@code @@gtid_slave_pos}, {@code @@gtid_binlog_pos}),
 * MySQL ({@code @@gtid_executed}) or PostgreSQL (a WAL position, {@link LsnPosition}).
 *
 * <p>Positions are immutable, thread-safe values compared by content, never as strings.
 *
 * <p><b>Flavours.</b> Comparing or merging non-empty positions of different flavours (MariaDB, MySQL,
 * PostgreSQL) throws {@link IllegalArgumentException}. An empty position means "nothing applied" in either
 * flavour, so it is compatible with both: everything contains an empty position, an empty position
 * contains only empty positions, and merging with an empty position yields the other side.
 * This matters because {@link #parse(String)} cannot tell the flavour of an empty string.
 */
public sealed interface GtidPosition permits MariaDbGtidPosition, MySqlGtidSet, LsnPosition {

    /**
     * @return true when everything in {@code other} has been applied at this position
     * @throws IllegalArgumentException if both positions are non-empty and of different flavours
     */
    boolean contains(GtidPosition other);

    /**
     * @return the position after both: per-domain maximum (MariaDB), set union (MySQL) or the later LSN
     * @throws IllegalArgumentException if both positions are non-empty and of different flavours
     */
    GtidPosition merge(GtidPosition other);

    /** @return true when this position holds no transaction at all */
    boolean isEmpty();

    /**
     * Whether the server at this position, a primary promoted after it replicated {@code survived} of the old primary's
     * history, holds {@code write}: {@code survived} contains it, or what {@code survived} lacks of it is this server's
     * own, written since its promotion, as its writer shows (MariaDB: the server id of the write's GTID in each domain
     * is this server's, and this position contains it; PostgreSQL: the write's timeline is this position's, both
     * known). A write
     * of the old primary that no replica had is not held, even where this server's own writes have passed its number.
     * MySQL's GTID sets name each transaction's source: {@code survived}, the server's {@code gtid_executed}, holds
     * its own writes already.
     *
     * @throws IllegalArgumentException if non-empty positions of different flavours are compared
     */
    default boolean holdsAfterPromotion(GtidPosition survived, GtidPosition write) {
        return survived.contains(write);
    }

    /**
     * This position, the furthest of writes committed since a failover, raised by {@code later}, a write committed after
     * them: merged, except where another server wrote {@code later}, as its writer shows (see
     * {@link #holdsAfterPromotion}): a primary promoted since, whose promotion was not seen yet. There this position
     * stays, so that a write of the old primary that no replica had is still found missing when the promotion is seen,
     * not hidden behind the new primary's own writes. {@link #merge} where the writer cannot be told (the default).
     *
     * @throws IllegalArgumentException if both positions are non-empty and of different flavours
     */
    default GtidPosition mergeSameWriter(GtidPosition later) {
        return merge(later);
    }

    /**
     * Canonical text as the server accepts it, for {@code MASTER_GTID_WAIT} (MariaDB, GTIDs
     * ordered by domain) or {@code WAIT_FOR_EXECUTED_GTID_SET} (MySQL, lower-case UUIDs in order,
     * intervals coalesced, one {@code uuid:...} member per source, members separated by {@code ,}),
     * or {@code X/Y} (PostgreSQL, upper-case hexadecimal).
     */
    @Override
    String toString();

    /**
     * Parses a MariaDB position: comma-separated {@code domain-server-seq} GTIDs, at most one per
     * domain; whitespace around separators is ignored; an empty or blank text is the empty position.
     *
     * @throws IllegalArgumentException naming the text when it is malformed
     */
    static GtidPosition parseMariaDb(String text) {
        return MariaDbGtidPosition.parse(text);
    }

    /**
     * Parses a MySQL GTID set as {@code @@gtid_executed} prints it: comma-separated
     * {@code uuid:interval[:interval...]} members with intervals {@code n} or {@code n-m}, optional
     * MySQL 8.3+ tags ({@code uuid:tag:n-m}), whitespace and newlines around separators ignored,
     * UUIDs and tags case-insensitive; an empty or blank text is the empty set.
     *
     * @throws IllegalArgumentException naming the text when it is malformed
     */
    static GtidPosition parseMySql(String text) {
        return MySqlGtidSet.parse(text);
    }

    /**
     * Parses a PostgreSQL LSN {@code X/Y} (hexadecimal halves, as {@code pg_current_wal_lsn()} prints it).
     *
     * @throws IllegalArgumentException naming the text when it is malformed
     */
    static GtidPosition parsePostgres(String text) {
        return LsnPosition.parse(text);
    }

    /**
     * Parses any flavour: text containing {@code '/'} is a PostgreSQL LSN, text containing {@code ':'} a
     * MySQL set, anything else a MariaDB position. An empty or blank text yields the empty MariaDB position, which is compatible with
     * both flavours (see the class comment).
     *
     * @throws IllegalArgumentException naming the text when it is malformed
     */
    static GtidPosition parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.indexOf('/') >= 0) {
            return LsnPosition.parse(text);
        }
        return text.indexOf(':') >= 0 ? MySqlGtidSet.parse(text) : MariaDbGtidPosition.parse(text);
    }
}
