package io.rwsplit.internal.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;

/**
 * The standby wait against a scripted connection: each poll of {@code pg_last_wal_replay_lsn()} answers the next
 * position and moves the fake clock by 50 ms, so timeouts are exact and nothing depends on real time.
 */
class LsnWaitTest {

    private final FakeClock clock = new FakeClock();
    private final List<String> sql = new ArrayList<>();
    private final List<Boolean> autoCommitAtQuery = new ArrayList<>();
    private boolean autoCommit = true;
    private final SharedReplayPoll shared = new SharedReplayPoll(new MemoryBoard());

    private Connection standby(int majorVersion, String... replayed) {
        Iterator<String> positions = java.util.Arrays.asList(replayed).iterator();
        DatabaseMetaData md = fake(DatabaseMetaData.class, (name, args) ->
                name.equals("getDatabaseMajorVersion") ? majorVersion : null);
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getAutoCommit" -> autoCommit;
            case "setAutoCommit" -> {
                autoCommit = (Boolean) args[0];
                yield null;
            }
            case "getMetaData" -> md;
            // the ask is a prepared statement, WAIT FOR LSN a plain one: both answer the next scripted line
            case "prepareStatement" -> fake(PreparedStatement.class, (sName, sArgs) -> switch (sName) {
                case "executeQuery" -> answer((String) args[0], positions);
                default -> null;
            });
            case "createStatement" -> fake(Statement.class, (sName, sArgs) -> switch (sName) {
                case "executeQuery" -> answer((String) sArgs[0], positions);
                default -> null;
            });
            default -> null;
        });
    }

    private ResultSet answer(String query, Iterator<String> positions) {
        sql.add(query);
        autoCommitAtQuery.add(autoCommit);
        clock.advance(Duration.ofMillis(50));
        String next = positions.next();
        return fake(ResultSet.class, (rName, rArgs) -> switch (rName) {
            case "next" -> true;
            case "getString" -> next;
            default -> null;
        });
    }

    @Test
    void asksUntilTheStandbyReplayedThePosition() throws Exception {
        Connection c = standby(15, "0/100", "0/1FF", "0/200");
        assertEquals(WaitResult.APPLIED_AFTER_WAITING, LsnWait.await(c, LsnPosition.parse("0/200"), 1_000_000, clock, shared, false));
        assertEquals(3, sql.size());
        assertEquals("select pg_last_wal_replay_lsn()", sql.get(0));
    }

    @Test
    void givesUpWhenTheTimeoutPasses() throws Exception {
        Connection c = standby(15, "0/100", "0/100", "0/100", "0/100", "0/100");
        assertEquals(WaitResult.NOT_APPLIED, LsnWait.await(c, LsnPosition.parse("0/200"), 120_000, clock, shared, false));
        assertEquals(3, sql.size(), "asks at 0, 50 and 100 ms of 120 ms (each ask moves the clock 50 ms): " + sql);
    }

    @Test
    void aServerThatIsNotAStandbyNeverCountsAsCaughtUp() throws Exception {
        Connection c = standby(15, (String) null);
        assertEquals(WaitResult.NOT_APPLIED, LsnWait.await(c, LsnPosition.parse("0/200"), 1_000_000, clock, shared, false));
    }

    @Test
    void waitsOutsideTheTransactionAndRestoresIt() throws Exception {
        autoCommit = false;
        Connection c = standby(15, "0/300");
        assertEquals(WaitResult.ALREADY_APPLIED, LsnWait.await(c, LsnPosition.parse("0/200"), 1_000_000, clock, shared, false));
        assertEquals(List.of(true), autoCommitAtQuery, "the poll takes no snapshot of the transaction");
        assertFalse(autoCommit, "the transaction mode is restored");
    }

    @Test
    void usesWaitForLsnWhereTheServerHasIt() throws Exception {
        Connection c = standby(19, "success");
        assertEquals(WaitResult.APPLIED_AFTER_WAITING, LsnWait.await(c, LsnPosition.parse("16/B374D848"), 200_000, clock, shared, false));
        assertEquals(List.of("wait for lsn '16/B374D848' with (timeout '200ms', no_throw)"), sql);
        Connection timedOut = standby(19, "timeout");
        assertEquals(WaitResult.NOT_APPLIED, LsnWait.await(timedOut, LsnPosition.parse("16/B374D848"), 200_000, clock, shared, false));
    }
}
