package io.rwsplit.internal.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.position.LsnPosition;

/**
 * A commit's position on PostgreSQL, read right after the commit, against a scripted connection that records what
 * the capture asked of it: in manual-commit mode the query runs with autocommit on (so the driver begins no
 * transaction for it) and the mode is restored. A transaction that wrote is committed together with the reading of
 * its position: one statement, one round trip.
 */
class PostgresCommitPositionTest {

    private final List<String> calls = new ArrayList<>();
    private boolean autoCommit;

    private Connection primary() {
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getAutoCommit" -> autoCommit;
            case "setAutoCommit" -> {
                autoCommit = (Boolean) args[0];
                calls.add("setAutoCommit(" + autoCommit + ")");
                yield null;
            }
            case "prepareStatement" -> fake(PreparedStatement.class, (sName, sArgs) -> {
                if (!sName.equals("executeQuery")) {
                    return null;
                }
                noSqlGiven(sArgs);
                calls.add("query " + args[0] + " with autocommit " + autoCommit);
                return fake(ResultSet.class, (rName, rArgs) -> switch (rName) {
                    case "next" -> true;
                    case "getString" -> switch ((Integer) rArgs[0]) {
                        case 1 -> "0/16B3748";
                        case 4 -> "00000003";
                        default -> "8192";
                    };
                    default -> null;
                });
            });
            default -> null;
        });
    }

    @Test
    void afterACommitInManualCommitModeThePositionIsReadWithAutocommitOnAndTheModeRestored() throws Exception {
        autoCommit = false;
        GtidPosition position = GtidFlavour.POSTGRESQL.captureAfterCommit(primary());
        assertEquals(LsnPosition.parse("0/16B3748"), position);
        assertEquals(List.of("setAutoCommit(true)", "query " + CAPTURE + " with autocommit true", "setAutoCommit(false)"), calls);
        assertEquals(false, autoCommit);
    }

    @Test
    void inAutocommitModeThePositionIsReadAsItIs() throws Exception {
        autoCommit = true;
        LsnPosition captured = (LsnPosition) GtidFlavour.POSTGRESQL.captureAfterCommit(primary());
        assertEquals(LsnPosition.parse("0/16B3748"), captured);
        assertEquals(3, captured.timeline(), "the timeline it was written on");
        assertEquals(List.of("query " + CAPTURE + " with autocommit true"), calls);
        assertEquals(0, ((LsnPosition) GtidFlavour.POSTGRESQL.captureGlobal(primary())).timeline(),
                "read on another connection: which server wrote the commit is not known");
    }

    /** What the scripted server answers to the combined statement: null for success, else the error it raises. */
    private SQLException combinedFails;
    private String position = "0/16B3748";
    /** The WAL flush position the scripted server answers beside the insert position; null: the same as it. */
    private String flushPosition;
    /** What the guard reads of {@code synchronous_commit} inside the transaction. */
    private String synchronousCommit = "on";
    private int result;

    private Connection committingPrimary() {
        return fake(Connection.class, (name, args) -> switch (name) {
            case "commit" -> {
                calls.add("commit()");
                yield null;
            }
            case "prepareStatement" -> preparedCommit((String) args[0]);
            default -> null;
        });
    }

    /** The position query the capture prepares. */
    private static final String CAPTURE = "select pg_current_wal_insert_lsn(), current_setting('wal_block_size'),"
            + " pg_current_wal_flush_lsn(), substr(pg_walfile_name(pg_current_wal_insert_lsn()), 1, 8)";

    /** A prepared statement is executed without SQL: pgjdbc refuses {@code execute(String)} on one. */
    static void noSqlGiven(Object[] args) {
        if (args != null && args.length > 0) {
            throw new AssertionError("a prepared statement executed with SQL of its own: pgjdbc refuses that");
        }
    }

    /** The combined statement as prepared with {@code sql}: it records its execution, then answers as scripted. */
    private PreparedStatement preparedCommit(String sql) {
        return fake(PreparedStatement.class, (sName, sArgs) -> switch (sName) {
            case "execute" -> {
                noSqlGiven(sArgs);
                calls.add("execute " + sql);
                if (combinedFails != null) {
                    throw combinedFails;
                }
                result = 1;
                yield true;
            }
            case "getMoreResults" -> ++result == 3;
            case "getResultSet" -> result == 1 ? fake(ResultSet.class, (rName, rArgs) -> switch (rName) {
                case "next" -> true;
                case "getString" -> synchronousCommit;
                default -> null;
            }) : result != 3 ? null : fake(ResultSet.class, (rName, rArgs) -> switch (rName) {
                case "next" -> true;
                case "getString" -> switch ((Integer) rArgs[0]) {
                    case 1 -> position;
                    case 2 -> "8192";
                    case 4 -> "0000000A";
                    default -> flushPosition == null ? position : flushPosition;
                };
                default -> null;
            });
            case "close" -> {
                calls.add("close");
                yield null;
            }
            default -> null;
        });
    }

    @Test
    void aTransactionThatWroteIsCommittedWithItsPositionReadInOneStatement() throws Exception {
        List<Exception> unreadable = new ArrayList<>();
        GtidPosition read = GtidFlavour.POSTGRESQL.commitCapturing(committingPrimary(), unreadable::add);
        assertEquals(LsnPosition.parse("0/16B3748"), read);
        assertEquals(10, ((LsnPosition) read).timeline(), "the timeline it was written on");
        assertEquals(List.of("execute select current_setting('synchronous_commit'); commit; " + CAPTURE,
                "commit()", "close"), calls, "one statement; the driver's commit() after it only tells the pool");
        assertEquals(List.of(), unreadable);
    }

    @Test
    void aSynchronousCommitWaitsForTheFlushPositionNotForWalOtherSessionsInsertedSince() throws Exception {
        position = "0/16B9000";   // other sessions' records inserted after the commit, not flushed yet
        flushPosition = "0/16B3748";
        for (String synchronous : List.of("on", "local", "remote_write", "remote_apply")) {
            synchronousCommit = synchronous;
            assertEquals(LsnPosition.parse("0/16B3748"),
                    GtidFlavour.POSTGRESQL.commitCapturing(committingPrimary(), e -> { throw new AssertionError(e); }),
                    synchronous);
        }
    }

    @Test
    void anAsynchronousCommitWaitsForTheInsertPositionWhichIsAtOrPastItsRecord() throws Exception {
        synchronousCommit = "off";   // SET LOCAL synchronous_commit = off: the guard reads it inside the transaction
        position = "0/16B3748";
        flushPosition = "0/16B3000";   // the commit record may not be flushed yet
        assertEquals(LsnPosition.parse("0/16B3748"),
                GtidFlavour.POSTGRESQL.commitCapturing(committingPrimary(), e -> { throw new AssertionError(e); }));
    }

    @Test
    void aTransactionAnErrorAbortedIsLeftToTheDriversOwnCommit() throws Exception {
        combinedFails = new SQLException("current transaction is aborted", "25P02");
        assertSame(LsnPosition.EMPTY, GtidFlavour.POSTGRESQL.commitCapturing(committingPrimary(),
                e -> { throw new AssertionError(e); }), "nothing committed");
        assertEquals("commit()", calls.get(calls.size() - 1), "the driver answers as the application expects of it");
    }

    @Test
    void aFailingCommitThrowsItsOwnErrorAndIsNotCommittedAgain() {
        combinedFails = new SQLException("duplicate key value violates unique constraint", "23505");
        SQLException thrown = assertThrows(SQLException.class,
                () -> GtidFlavour.POSTGRESQL.commitCapturing(committingPrimary(), e -> { throw new AssertionError(e); }));
        assertSame(combinedFails, thrown);
        assertEquals(List.of("execute select current_setting('synchronous_commit'); commit; " + CAPTURE,
                "close"), calls);
    }

    @Test
    void aPositionThatCannotBeReadAfterTheCommitIsReportedNotThrown() throws Exception {
        position = "not a position";
        List<Exception> unreadable = new ArrayList<>();
        assertNull(GtidFlavour.POSTGRESQL.commitCapturing(committingPrimary(), unreadable::add));
        assertEquals(1, unreadable.size(), "told once: " + unreadable);
        assertEquals("close", calls.get(calls.size() - 1));
    }

    @Test
    void onlyPostgresqlCommitsWithItsPosition() {
        assertEquals(true, GtidFlavour.POSTGRESQL.commitsWithPosition());
        assertEquals(false, GtidFlavour.MARIADB.commitsWithPosition());
        assertEquals(false, GtidFlavour.MYSQL.commitsWithPosition());
        assertEquals(false, GtidFlavour.NONE.commitsWithPosition());
    }
}
