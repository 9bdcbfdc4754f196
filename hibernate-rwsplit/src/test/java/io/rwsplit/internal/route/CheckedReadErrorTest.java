package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.rwsplit.Consistency;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.H2Server;

/**
 * A prepared read checked in its own round trip on a PostgreSQL standby (the question what it replayed and the read in
 * one message) whose read fails there. A standby behind the read's requirement fails a read that names what it has not
 * replayed (a table created since: 42P01), and the check's answer is lost with the error: the read is made sure of as
 * after a failed check and runs again, once, on its standby or on the primary. A cancel, a timeout or a syntax error is
 * the statement's own and is not run again, nor is anything in a transaction; a broken connection takes the failover's
 * path; an error of the read's own comes again, with the first one suppressed in it.
 */
class CheckedReadErrorTest {

    private static final String CHECKED = "select pg_last_wal_replay_lsn(), current_setting('transaction_isolation'); ";

    private final Servers servers;
    private final H2Server standby;

    CheckedReadErrorTest() throws SQLException {
        servers = new Servers(1, "round_robin", Map.of());
        standby = servers.replicas.get(0);
        standby.productName = "PostgreSQL";   // below 19 (H2's major version): its replay can only be asked
        standby.execute("create alias pg_last_wal_replay_lsn as 'String lsn() { return \"0/20\"; }'");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** A new connection of a session that must see the write at 0/20, which no replica is known to have replayed. */
    private RoutingConnection afterAWrite() {
        SessionRouting session = servers.session(Consistency.readYourWrites());
        session.consistency().require(ConsistencyToken.of(LsnPosition.parse("0/20"), servers.clock.epochMicros()));
        return servers.open(session);
    }

    private void checkedReadsFail(SQLException error) {
        standby.preparedFails = sql -> sql.startsWith(CHECKED) ? error : null;
    }

    @Test
    void aCheckedReadThatFailsForWhatItsStandbyHadNotReplayedRunsAgainOnceMadeSureOf() throws SQLException {
        checkedReadsFail(new SQLException("ERROR: relation \"who\" does not exist", "42P01"));
        try (RoutingConnection c = afterAWrite()) {
            assertEquals("r1", Servers.who(c), "the standby has replayed 0/20 when asked: the read runs there unchecked");
        }
        assertEquals(1, standby.failedPrepared.get(), "the checked read ran once");
        assertEquals(1, standby.closedFailingPrepared.get(), "the failed driver statement was closed");
    }

    @Test
    void aCheckedReadWhoseStandbyCannotBeMadeSureOfRunsOnThePrimary() throws SQLException {
        // the question alone fails too: the standby cannot say what it replayed
        standby.preparedFails = sql -> sql.startsWith("select pg_last_wal_replay_lsn()")
                ? new SQLException("ERROR: relation \"who\" does not exist", "42P01") : null;
        try (RoutingConnection c = afterAWrite()) {
            assertEquals("primary", Servers.who(c));
        }
        assertEquals(2, standby.failedPrepared.get(), "the checked read, then the question");
    }

    static Stream<SQLException> errorsOfTheStatementsOwn() {
        return Stream.of(new SQLException("ERROR: canceling statement due to user request", "57014"),
                new SQLTimeoutException("query timed out"),
                new SQLException("ERROR: syntax error at or near \"form\"", "42601"));
    }

    @ParameterizedTest
    @MethodSource("errorsOfTheStatementsOwn")
    void aCheckedReadStoppedByItsCallerOrWrongInItselfIsNotRunAgain(SQLException error) throws SQLException {
        checkedReadsFail(error);
        try (RoutingConnection c = afterAWrite()) {
            assertSame(error, assertThrows(SQLException.class, () -> Servers.who(c)));
        }
        assertEquals(1, standby.failedPrepared.get());
    }

    @Test
    void aCheckedReadThatFailsInATransactionIsNotRunAgain() throws SQLException {
        SQLException missing = new SQLException("ERROR: relation \"who\" does not exist", "42P01");
        checkedReadsFail(missing);
        try (RoutingConnection c = afterAWrite();
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            c.setReadOnly(true);
            c.setAutoCommit(false);   // prepared outside the transaction, executed in it (read-only: on its standby)
            read.setInt(1, 1);
            assertSame(missing, assertThrows(SQLException.class, read::executeQuery));
            c.rollback();
        }
        assertEquals(1, standby.failedPrepared.get());
    }

    @Test
    void aCheckedReadPreparedOutsideAReadWriteTransactionRunsInItOnThePrimary() throws SQLException {
        checkedReadsFail(new SQLException("ERROR: relation \"who\" does not exist", "42P01"));
        try (RoutingConnection c = afterAWrite();
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            c.setAutoCommit(false);   // prepared outside the transaction, executed in it: routed again
            read.setInt(1, 1);
            try (java.sql.ResultSet rs = read.executeQuery()) {
                rs.next();
                assertEquals("primary", rs.getString(1));
            }
            c.rollback();
        }
        assertEquals(0, standby.failedPrepared.get(), "never run on the standby");
    }

    @Test
    void aCheckedReadWhoseConnectionBrokeMovesOnceAsAnyReadDoes() throws SQLException {
        checkedReadsFail(new SQLNonTransientConnectionException("simulated: socket closed", "08006"));
        try (RoutingConnection c = afterAWrite()) {
            assertEquals("primary", Servers.who(c), "the only replica is down: the read moved to the primary");
        }
        assertEquals(1, standby.failedPrepared.get(), "not run again on the standby");
    }

    @Test
    void anErrorOfTheReadsOwnComesAgainWhereItSettledAndOnlyOnce() throws SQLException {
        Function<String, SQLException> everyRead = sql -> sql.contains("from who")
                ? new SQLException("ERROR: division by zero", "22012") : null;
        standby.preparedFails = everyRead;
        try (RoutingConnection c = afterAWrite()) {
            SQLException thrown = assertThrows(SQLException.class, () -> Servers.who(c));
            assertEquals("22012", thrown.getSQLState());
            assertEquals(1, thrown.getSuppressed().length, "the standby's first error is kept in it");
        }
        assertEquals(2, standby.failedPrepared.get(), "checked, then once more without the check");
    }

    @Test
    void anUpdateCountAskedOfACheckedReadRunsItWithoutTheCheck() throws SQLException {
        checkedReadsFail(new SQLException("simulated: the check's SQL reached the driver", "XX000"));
        try (RoutingConnection c = afterAWrite();
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            // H2 refuses an update count of a query, naming the SQL it was given: the read's own, not the check's
            SQLException refused = assertThrows(SQLException.class, read::executeUpdate);
            assertTrue(refused.getMessage().contains("select name from who where id = ?"), refused.getMessage());
        }
        assertEquals(0, standby.failedPrepared.get(), "the check's SQL never reached the driver");
    }

}
