package io.rwsplit.internal.consistency;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;

/**
 * The tokens of committed writes, for the units of one primary ({@link CausalReads}' commit side): the commit time,
 * and the write's position read on the primary (GTID, or LSN on PostgreSQL) unless the mode is {@code time} or the
 * server has none. A position that could not be read leaves the write to the time rule and marks it unconfirmed in
 * the unit's position until the primary answers again ({@link LostWrites}). Thread-safe; runs once per commit, never
 * on the routing path.
 */
final class CommitCapture {

    /** The server kind behind a connection, detected once for the primary and its replicas. */
    interface Flavours {
        GtidFlavour of(Connection c) throws SQLException;
    }

    private final ConsistencyRuntime runtime;
    private final UnitPosition unit;
    private final String label;
    private final Flavours flavours;
    private volatile boolean warnedNoGtid;
    /** Whether a commit's position was ever read: a server without positions (no GTIDs, no binary log) answers none. */
    private volatile boolean positionsSeen;

    /**
     * @param unit  the unit's last committed position, told of writes whose position could not be read
     * @param label the router's label, in log lines
     */
    CommitCapture(ConsistencyRuntime runtime, UnitPosition unit, String label, Flavours flavours) {
        this.runtime = runtime;
        this.unit = unit;
        this.label = label;
        this.flavours = flavours;
    }

    /**
     * The write just committed on {@code primary}: now, and its position (GTID, or LSN on PostgreSQL) unless the
     * mode is {@code time} or the server has none. Never throws: a failed capture yields a token without a position (the time rule).
     */
    ConsistencyToken capture(Connection primary) {
        return capture(primary, true, false, null);
    }

    /**
     * As {@link #capture(Connection)}, telling {@code failed} why the position could not be read (a connection that
     * broke after the commit: a multi-host URL may already lead to another server, which may lack the write).
     */
    ConsistencyToken capture(Connection primary, Consumer<? super Exception> failed) {
        return capture(primary, true, false, failed);
    }

    /**
     * As {@link #capture(Connection, Consumer)}, for a connection that has just been told to commit its transaction,
     * so that no transaction is open on it: the server may then read the position outside any transaction even in
     * manual-commit mode (PostgreSQL: one round trip instead of a transaction of its own, which the next switch to
     * autocommit would have to commit with another).
     */
    ConsistencyToken captureAfterCommit(Connection primary, Consumer<? super Exception> failed) {
        return capture(primary, true, true, failed);
    }

    /**
     * Whether {@link #commitCapturing} can commit a transaction on {@code primary} and read its position in one round
     * trip (PostgreSQL), rather than {@code commit()} followed by {@link #captureAfterCommit}.
     */
    boolean commitsWithPosition(Connection primary) {
        try {
            return runtime.config().mode() != ReadYourWritesMode.TIME && flavours.of(primary).commitsWithPosition();
        }
        catch (SQLException e) {
            return false;
        }
    }

    /**
     * Commits the transaction, which wrote, open on {@code primary} in manual-commit mode and returns the token of what
     * it committed, read in the same round trip (only where {@link #commitsWithPosition}). Throws what the commit threw;
     * a position that could not be read once the commit was done goes to {@code failed}, and its readers use the time
     * window, as with {@link #captureAfterCommit}. {@code null}: nothing was committed (an aborted transaction, which
     * the driver rolled back).
     */
    ConsistencyToken commitCapturing(Connection primary, Consumer<? super Exception> failed) throws SQLException {
        GtidPosition position = flavours.of(primary).commitCapturing(primary,
                e -> unreadable(e, failed, runtime.clock().epochMicros()));
        return position != null && position.isEmpty() ? null : token(position, runtime.clock().epochMicros());
    }

    /**
     * The token of a write committed on a connection that is already gone (JTA): the position is read on
     * {@code anotherPrimary}, any connection to the primary, as the server's global position. {@code failed} is told
     * why it could not be read, as for {@link #captureAfterCommit}: a read-only server answering means that connection
     * leads to a replica now.
     */
    ConsistencyToken captureElsewhere(Connection anotherPrimary, Consumer<? super Exception> failed) {
        return capture(anotherPrimary, false, false, failed);
    }

    /**
     * A write committed on a connection that is gone, whose position could not be read anywhere: its token (the time
     * rule for its readers), remembered as a write a failover may have lost until the primary answers again.
     */
    ConsistencyToken unconfirmedCommit(Exception why) {
        long now = runtime.clock().epochMicros();
        unreadable(why, null, now);
        return ConsistencyToken.withoutPosition(now);
    }

    /** A token of {@code position} committed at {@code epochMicros}; without a position (the time rule) when null. */
    static ConsistencyToken token(GtidPosition position, long epochMicros) {
        return position == null ? ConsistencyToken.withoutPosition(epochMicros) : ConsistencyToken.of(position, epochMicros);
    }

    /**
     * The position of a write the server acknowledged could not be read: its readers use the time window, and until
     * the primary is seen answering again a failover cannot tell whether the write survived ({@link LostWrites}).
     *
     * @param commitMicros at most the commit time of the token the write gets
     */
    private void unreadable(Exception e, Consumer<? super Exception> failed, long commitMicros) {
        unit.unconfirmed(runtime.clock().nanoTime(), commitMicros);
        ConsistencyRuntime.log.warn("hibernate-rwsplit [{}]: could not read the position of a commit ({}); its readers"
                + " use the time window", label, e.toString());
        if (failed != null) {
            failed.accept(e);
        }
    }

    private ConsistencyToken capture(Connection primary, boolean committingConnection, boolean justCommitted,
                                     Consumer<? super Exception> failed) {
        long now = runtime.clock().epochMicros();
        ReadYourWritesMode mode = runtime.config().mode();
        if (mode == ReadYourWritesMode.TIME) {
            return ConsistencyToken.withoutPosition(now);
        }
        try {
            GtidFlavour f = flavours.of(primary);
            if (f == GtidFlavour.NONE) {
                if (mode == ReadYourWritesMode.GTID && !warnedNoGtid) {
                    warnedNoGtid = true;
                    ConsistencyRuntime.log.warn("hibernate-rwsplit [{}]: read_your_writes is 'gtid' but the primary reports"
                            + " no GTIDs ({}); the time window is used instead", label,
                            primary.getMetaData().getDatabaseProductName());
                }
                return ConsistencyToken.withoutPosition(now);
            }
            GtidPosition position = !committingConnection ? f.captureGlobal(primary)
                    : justCommitted ? f.captureAfterCommit(primary) : f.capture(primary);
            if (position != null) {
                // read after the position: a failover seen before this time (its base read after it) has the position,
                // which the re-base of a token older than the failover relies on
                now = runtime.clock().epochMicros();
            }
            if (position != null) {
                if (!positionsSeen) {
                    positionsSeen = true;
                }
            }
            else if (positionsSeen) {
                // a server that gave positions answered none for a commit that wrote nothing to its log (MariaDB's
                // @@last_gtid stays empty on a connection until it logs a transaction), or a server other than the one
                // that ran the commit (a read-only one is refused in the flavour, as a connection the driver re-opened
                // elsewhere): the write's position is unknown until the primary answers again
                unit.unconfirmed(runtime.clock().nanoTime(), now);
            }
            return token(position, now);
        }
        catch (SQLException | RuntimeException e) {
            unreadable(e, failed, now);
            return ConsistencyToken.withoutPosition(now);
        }
    }
}
