package io.rwsplit.internal.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.FakeClock;

/**
 * A read checked in its own round trip on a PostgreSQL standby: the standby's answer to the check, read before the
 * read's snapshot, says whether the read's rows may be used, and is learnt either way.
 */
class CheckedInReadTest {

    private final ServerEpochs epochs = new ServerEpochs(2);
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), new FakeClock()), "t", epochs);
    private final ConsistencyToken need = ConsistencyToken.of(io.rwsplit.position.LsnPosition.parse("0/3000060"), 1_000);

    private static Connection standby(String product, int major) {
        DatabaseMetaData md = fake(DatabaseMetaData.class, (name, args) -> switch (name) {
            case "getDatabaseProductName" -> product;
            case "getDatabaseProductVersion" -> major + ".4";
            case "getDatabaseMajorVersion" -> major;
            default -> null;
        });
        return fake(Connection.class, (name, args) -> name.equals("getMetaData") ? md : null);
    }

    @Test
    void theCheckComesFirstInTheSameMessage() {
        assertEquals("select pg_last_wal_replay_lsn(), current_setting('transaction_isolation'); select 1 from t where id = ?",
                CausalReads.checkedInRead("select 1 from t where id = ?"));
    }

    @Test
    void onlyStandbysThatCanOnlyBeAskedAreCheckedInTheRead() {
        assertTrue(causal.checksInRead(standby("PostgreSQL", 15)));
        CausalReads server19 = new CausalReads(ConsistencyRuntime.create(Map.of(), new FakeClock()), "t", new ServerEpochs(2));
        assertFalse(server19.checksInRead(standby("PostgreSQL", 19)), "WAIT FOR LSN waits in one statement");
        CausalReads mariadb = new CausalReads(ConsistencyRuntime.create(Map.of(), new FakeClock()), "t", new ServerEpochs(2));
        assertFalse(mariadb.checksInRead(standby("MariaDB", 11)), "MASTER_GTID_WAIT waits in one statement");
    }

    @Test
    void aReadWhoseStandbyHadReplayedTheWriteIsUsedAndTheStandbyIsKnownToHaveIt() {
        assertTrue(causal.checkedInRead(0, "0/3000060", "read committed", epochs.current(0), need));
        assertTrue(causal.applied(0, need.positionOrNull()), "the next reads need not ask");
        assertFalse(causal.applied(1, need.positionOrNull()));
    }

    @Test
    void aReadWhoseStandbyWasBehindIsNotUsedButWhatTheStandbyReplayedIsLearnt() {
        assertFalse(causal.checkedInRead(0, "0/3000000", "read committed", epochs.current(0), need));
        assertTrue(causal.applied(0, io.rwsplit.position.LsnPosition.parse("0/3000000")));
        assertFalse(causal.applied(0, need.positionOrNull()));
    }

    @Test
    void aServerThatIsNotAStandbyNeverPassesTheCheck() {
        assertFalse(causal.checkedInRead(0, null, "read committed", epochs.current(0), need));
    }

    @Test
    void atRepeatableReadTheAnswerProvesNothingAndReadsAskFirstFromThenOn() {
        Connection standby = standby("PostgreSQL", 15);
        assertTrue(causal.checksInRead(standby));
        assertFalse(causal.checkedInRead(0, "0/3000060", "repeatable read", epochs.current(0), need),
                "the read's snapshot was taken before the answer was read");
        assertFalse(causal.checksInRead(standby));
    }

    @Test
    void anAnswerFromBeforeTheStandbyRestartedIsNotLearnt() {
        long before = epochs.current(0);
        epochs.forget(0);
        causal.checkedInRead(0, "0/3000060", "read committed", before, need);
        assertFalse(causal.applied(0, need.positionOrNull()));
    }

    @Test
    void theStatisticsCountCheckedReadsFailedChecksAndTheQuestionsAWaitAsked() {
        assertTrue(causal.checkedInRead(0, "0/3000060", "read committed", epochs.current(0), need));
        assertFalse(causal.checkedInRead(1, "0/3000000", "read committed", epochs.current(1), need));
        assertEquals(2, causal.checkedReplicaReads());
        assertEquals(1, causal.failedReplicaChecks());
        assertEquals(0, causal.replicaPositionQueries(), "a check is no question of its own");

        java.util.Iterator<String> answers = java.util.List.of("0/3000000", "0/3000060").iterator();
        Connection standby = standby("PostgreSQL", 15, answers);
        assertTrue(causal.checksInRead(standby));
        assertTrue(causal.await(standby, 1, need, true));
        assertEquals(2, causal.replicaPositionQueries(), "two polls after the failed check (none at once)");
        assertEquals(1, causal.failedReplicaChecks());
    }

    /** A standby whose replayed position, asked, is the next of {@code answers}. */
    private static Connection standby(String product, int major, java.util.Iterator<String> answers) {
        DatabaseMetaData md = fake(DatabaseMetaData.class, (name, args) -> switch (name) {
            case "getDatabaseProductName" -> product;
            case "getDatabaseProductVersion" -> major + ".4";
            case "getDatabaseMajorVersion" -> major;
            default -> null;
        });
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> md;
            case "getAutoCommit" -> true;
            case "prepareStatement" -> fake(java.sql.PreparedStatement.class, (sName, sArgs) -> {
                if (!sName.equals("executeQuery")) {
                    return null;
                }
                String answer = answers.next();
                return fake(java.sql.ResultSet.class, (rName, rArgs) -> switch (rName) {
                    case "next" -> true;
                    case "getString" -> answer;
                    default -> null;
                });
            });
            default -> null;
        });
    }
}
