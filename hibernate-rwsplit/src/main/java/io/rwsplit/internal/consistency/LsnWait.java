package io.rwsplit.internal.consistency;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import io.rwsplit.position.LsnPosition;
import io.rwsplit.spi.Clock;

/**
 * Makes a PostgreSQL standby's session wait until the standby replayed a WAL position.
 *
 * <p><b>Which position a commit has.</b> After a transaction commits, its position is read on the same
 * connection, in the commit's own round trip ({@link GtidFlavour}'s {@code commitCapturing}): the WAL insert position
 * ({@code pg_current_wal_insert_lsn()}) and the WAL flush position, and {@code synchronous_commit} as the commit applied
 * it. The commit record was inserted into the WAL before {@code COMMIT} returned, so the insert position is at or after
 * the end of that record whatever {@code synchronous_commit} says; a synchronous commit also waited for its WAL to be
 * flushed, so the flush position is at or after it too, and it is the tighter of the two (the insert position may be
 * further on: records of other sessions, or a page header when the commit ended exactly at a page boundary; a reader
 * then waits for those too, which costs time, never correctness). With {@code synchronous_commit = off}, also set just
 * for one transaction with {@code SET LOCAL}, the flush (or write) position may still be before the commit record, and
 * the insert position is taken.
 *
 * <p><b>How the standby waits.</b> A server that has {@code WAIT FOR LSN} (PostgreSQL 19 and later) waits
 * in one statement; older servers (PostgreSQL 15 has no wait primitive) are asked with
 * {@code pg_last_wal_replay_lsn()}, once at once and then by one {@link SharedReplayPoll} for all the reads waiting
 * on that standby, until the position is replayed or the timeout passes. The wait runs outside any transaction: in a transaction that has not run a
 * statement yet, the connection is switched to autocommit for the wait and back, so that a
 * {@code REPEATABLE READ} transaction takes its snapshot after the wait, not before it.
 */
final class LsnWait {

    private static final int FIRST_VERSION_WITH_WAIT_FOR = 19;

    private LsnWait() {
    }

    /**
     * Whether the standby behind {@code standby} replayed {@code position} (at once, or after waiting), or timed out.
     * {@code justAsked}: this read's own check asked the standby just now (see {@link SharedReplayPoll#await}).
     */
    static WaitResult await(Connection standby, LsnPosition position, long timeoutMicros, Clock clock, SharedReplayPoll shared,
                            boolean justAsked) throws SQLException {
        boolean inTransaction = !standby.getAutoCommit();
        if (inTransaction) {
            standby.setAutoCommit(true);
        }
        try {
            if (waitsOnServer(standby)) {
                Boolean reached = waitFor(standby, position, timeoutMicros);
                if (reached != null) {
                    return reached ? WaitResult.APPLIED_AFTER_WAITING : WaitResult.NOT_APPLIED;
                }
            }
            long since = clock.nanoTime();
            return shared.await(standby, position, since, since + TimeUnit.MICROSECONDS.toNanos(timeoutMicros), clock,
                    justAsked);
        }
        finally {
            if (inTransaction) {
                standby.setAutoCommit(false);
            }
        }
    }

    /** Whether the server behind {@code c} has {@code WAIT FOR LSN} (PostgreSQL 19 and later). */
    static boolean waitsOnServer(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseMajorVersion() >= FIRST_VERSION_WITH_WAIT_FOR;
    }

    /** Asks a standby what it replayed. */
    static final String REPLAYED = "select pg_last_wal_replay_lsn()";

    /**
     * The standby's replayed position, or {@code null} when the server is not a standby. Asked as a prepared statement:
     * pgjdbc keeps the parsed query per physical connection and, from its fifth execution there, runs it as a named
     * server-side statement, so the standby neither parses nor plans the question again (a plain {@code Statement} is
     * parsed and planned at every ask, and a read that must see the unit's last write asks once per write).
     */
    static LsnPosition replayed(Connection standby) throws SQLException {
        try (PreparedStatement s = standby.prepareStatement(REPLAYED); ResultSet rs = s.executeQuery()) {
            String text = rs.next() ? rs.getString(1) : null;
            return text == null ? null : LsnPosition.parse(text);
        }
    }

    /** {@code WAIT FOR LSN}: {@code true} on success, {@code false} on timeout, {@code null} if the server refused it. */
    private static Boolean waitFor(Connection standby, LsnPosition position, long timeoutMicros) throws SQLException {
        long millis = Math.max(1, TimeUnit.MICROSECONDS.toMillis(timeoutMicros));
        String sql = "wait for lsn '" + position + "' with (timeout '" + millis + "ms', no_throw)";
        try (Statement s = standby.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() && "success".equals(rs.getString(1));
        }
        catch (SQLException e) {
            String state = e.getSQLState();
            if (state != null && (state.startsWith("42") || state.startsWith("0A"))) {
                return null; // a server without the command: poll instead
            }
            throw e;
        }
    }
}
