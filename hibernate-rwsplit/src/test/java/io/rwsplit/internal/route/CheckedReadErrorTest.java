package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.H2Server;

/**
 * A prepared read checked in its own round trip on a PostgreSQL standby (the question what it replayed and the read in
 * one message) whose read fails there. A standby behind the read's requirement fails a read that names what it has not
 * replayed (a table created since: 42P01), and the check's answer is lost with the error: the read is made sure of as
 * after a failed check and runs again. A cancel is not run again; an error of the read's own comes again, once.
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
    }

    @Test
    void aCanceledCheckedReadIsNotRunAgain() throws SQLException {
        checkedReadsFail(new SQLException("ERROR: canceling statement due to user request", "57014"));
        try (RoutingConnection c = afterAWrite()) {
            assertEquals("57014", assertThrows(SQLException.class, () -> Servers.who(c)).getSQLState());
        }
        assertEquals(1, standby.failedPrepared.get());
    }

    @Test
    void anErrorOfTheReadsOwnComesAgainWhereItSettledAndOnlyOnce() throws SQLException {
        Function<String, SQLException> everyRead = sql -> sql.contains("from who")
                ? new SQLException("ERROR: division by zero", "22012") : null;
        standby.preparedFails = everyRead;
        try (RoutingConnection c = afterAWrite()) {
            SQLException thrown = assertThrows(SQLException.class, () -> Servers.who(c));
            assertEquals("22012", thrown.getSQLState());
        }
        assertEquals(2, standby.failedPrepared.get(), "checked, then once more without the check");
    }
}
