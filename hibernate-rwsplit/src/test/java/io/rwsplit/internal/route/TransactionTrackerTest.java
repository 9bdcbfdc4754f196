package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.Intent;
import io.rwsplit.RouteReason;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.consistency.SessionConsistency;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.internal.route.TransactionTracker.Kind;
import io.rwsplit.spi.TransactionStatus;
import io.rwsplit.testing.FakeClock;

/**
 * The transaction state of one logical connection, on its own (it makes no JDBC calls): one begin per transaction,
 * its kind decided at its first statement, its end by commit, rollback, autocommit switched on or a JTA transaction
 * left, and each write handed to the recorder exactly once, when it has committed.
 */
class TransactionTrackerTest {

    private final SessionConsistency consistency =
            new CausalReads(ConsistencyRuntime.create(Map.of(), new FakeClock()), "test", new ServerEpochs(1)).newSession();
    private final SessionRouting session = new SessionRouting(null, consistency);
    /** What the recorder was told, one {@code justCommitted} per recorded write. */
    private final List<Boolean> recorded = new ArrayList<>();
    /** The JTA transaction the thread runs in, or null. */
    private Object jta;
    private final TransactionStatus transactions = () -> jta;

    private TransactionTracker tracker(SessionRouting session, boolean readOnlySession) {
        return new TransactionTracker(new Served(null, session), transactions, readOnlySession, recorded::add);
    }

    private TransactionTracker tracker() {
        return tracker(session, false);
    }

    /** {@code setAutoCommit(false)}, as the facade reports it. */
    private static void autoCommitOff(TransactionTracker tx) {
        tx.autoCommitSwitchingOff();
        tx.autoCommitSwitched(false);
    }

    // ------------------------------------------------------------------ begin and kind

    @Test
    void aNewConnectionIsInAutocommitWithNoTransaction() {
        TransactionTracker tx = tracker();
        assertTrue(tx.autoCommit());
        assertFalse(tx.inTransaction());
        assertEquals(Kind.NONE, tx.kind());
        assertTrue(tx.ownsAutoCommit());
    }

    @Test
    void switchingAutocommitOffBeginsATransactionWhoseFirstStatementFixesItsKind() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        assertFalse(tx.autoCommit());
        assertTrue(tx.inTransaction());
        assertEquals(Kind.READ_WRITE, tx.kind());
        tx.readOnly(true);
        assertEquals(Kind.READ_WRITE, tx.kind(), "decided at the first statement");
        assertTrue(tx.readOnlyConnection());
    }

    @Test
    void aTransactionOfAReadOnlyConnectionIsStrictlyReadOnly() {
        TransactionTracker tx = tracker();
        tx.readOnly(true);
        autoCommitOff(tx);
        assertEquals(Kind.READ_ONLY_STRICT, tx.kind());

        TransactionTracker ofReadOnlySession = tracker(session, true);
        autoCommitOff(ofReadOnlySession);
        assertTrue(ofReadOnlySession.readOnlyConnection());
        assertEquals(Kind.READ_ONLY_STRICT, ofReadOnlySession.kind());
    }

    @Test
    void aTransactionBegunUnderAReplicaIntentPrefersReplicas() {
        TransactionTracker tx = tracker();
        session.pushIntent(Intent.REPLICA);
        autoCommitOff(tx);
        session.popIntent();
        assertEquals(Kind.READ_ONLY_PREFERRED, tx.kind(), "the intent when it began counts");
    }

    @Test
    void anIntentGivenAfterTheTransactionBeganDoesNotChangeItsKind() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        session.pushIntent(Intent.REPLICA);
        assertEquals(Kind.READ_WRITE, tx.kind());
    }

    @Test
    void aTransactionOfASessionReadOnlyByDefaultPrefersReplicas() {
        SessionRouting readOnlyByDefault = new SessionRouting(null, consistency) {
            @Override
            public boolean defaultReadOnly() {
                return true;
            }
        };
        TransactionTracker tx = tracker(readOnlyByDefault, false);
        autoCommitOff(tx);
        assertEquals(Kind.READ_ONLY_PREFERRED, tx.kind());
    }

    @Test
    void aWriteMovesAReadOnlyByPreferenceTransactionToThePrimaryButNotAStrictOne() {
        TransactionTracker preferred = tracker();
        session.pushIntent(Intent.REPLICA);
        autoCommitOff(preferred);
        preferred.writeInPreferredReadOnly();
        assertEquals(Kind.READ_WRITE, preferred.kind());

        TransactionTracker strict = tracker(session, true);
        autoCommitOff(strict);
        strict.writeInPreferredReadOnly();
        assertEquals(Kind.READ_ONLY_STRICT, strict.kind());
    }

    // ------------------------------------------------------------------ commit and rollback

    @Test
    void commitEndsTheTransactionAndRecordsNoWriteWhenNothingWasWritten() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        assertEquals(Kind.READ_WRITE, tx.kind());
        assertFalse(tx.committingAWrite());
        tx.readOnly(true);
        tx.committed(false);
        assertEquals(List.of(), recorded);
        assertTrue(tx.inTransaction(), "in manual-commit mode the next transaction begins at once");
        assertEquals(Kind.READ_ONLY_STRICT, tx.kind(), "its kind is decided at its own first statement");
    }

    @Test
    void commitRecordsTheTransactionsWriteOnceAsJustCommitted() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        tx.statementStarting();
        tx.wrote();
        assertTrue(tx.committingAWrite());
        tx.committed(false);
        assertEquals(List.of(true), recorded);
        assertFalse(tx.committingAWrite());
        tx.committed(false);
        assertEquals(List.of(true), recorded, "the next transaction wrote nothing");
    }

    @Test
    void aCommitThatRecordedItsWriteItselfIsNotRecordedAgain() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        tx.wrote();
        tx.committed(true);   // the gate committed and read the position in one round trip
        assertEquals(List.of(), recorded);
        assertFalse(tx.committingAWrite());
        tx.autoCommitSwitched(true);
        assertEquals(List.of(), recorded, "nothing left to record");
    }

    @Test
    void commitAndRollbackInAutocommitModeChangeNothing() {
        TransactionTracker tx = tracker();
        tx.wrote();
        tx.committed(false);
        tx.rolledBack();
        assertFalse(tx.inTransaction());
        assertEquals(List.of(), recorded, "the autocommit write is recorded at the next statement, not by commit()");
        tx.statementStarting();
        assertEquals(List.of(false), recorded);
    }

    @Test
    void rollbackForgetsTheWriteAndBeginsAFreshTransaction() {
        TransactionTracker tx = tracker();
        session.pushIntent(Intent.REPLICA);
        autoCommitOff(tx);
        tx.writeInPreferredReadOnly();
        tx.wrote();
        tx.rolledBack();
        assertFalse(tx.committingAWrite());
        assertTrue(tx.inTransaction());
        assertEquals(Kind.READ_ONLY_PREFERRED, tx.kind(), "begun again: the write moved the old one only");
        tx.committed(false);
        assertEquals(List.of(), recorded, "a rolled-back write is never recorded");
    }

    @Test
    void aTransactionThatFoundNoReplicaStaysOnThePrimaryUntilItEnds() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        tx.replicaUnavailableInTransaction();
        assertTrue(tx.replicaUnavailable());
        tx.committed(false);
        assertFalse(tx.replicaUnavailable(), "the next transaction tries the replicas again");

        tx.replicaUnavailableInTransaction();
        tx.rolledBack();
        assertFalse(tx.replicaUnavailable());

        tx.replicaUnavailableInTransaction();
        tx.autoCommitSwitched(true);
        assertFalse(tx.replicaUnavailable());
    }

    @Test
    void theConsistencyLevelIsAppliedOncePerTransaction() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        assertTrue(tx.needsConsistencyCheck());
        tx.consistencyChecked(RouteReason.STRONG_CONSISTENCY);
        assertFalse(tx.needsConsistencyCheck());
        assertEquals(RouteReason.STRONG_CONSISTENCY, tx.primaryReason());
        tx.committed(false);
        assertTrue(tx.needsConsistencyCheck(), "checked again in the next transaction");
        assertNull(tx.primaryReason());
    }

    // ------------------------------------------------------------------ autocommit switches

    @Test
    void switchingAutocommitBackOnEndsTheTransactionAndRecordsItsWrite() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        tx.wrote();
        tx.autoCommitSwitched(true);
        assertTrue(tx.autoCommit());
        assertFalse(tx.inTransaction());
        assertEquals(List.of(false), recorded, "switching autocommit on committed it");
    }


    @Test
    void switchingAutocommitOffRecordsThePendingAutocommitWriteFirst() {
        TransactionTracker tx = tracker();
        tx.wrote();
        tx.autoCommitSwitchingOff();
        assertEquals(List.of(false), recorded);
        tx.autoCommitSwitched(false);
        tx.committed(false);
        assertEquals(List.of(false), recorded, "the transaction did not inherit the write");
    }

    // ------------------------------------------------------------------ autocommit writes

    @Test
    void anAutocommitWriteIsRecordedOnceBeforeTheNextStatement() {
        TransactionTracker tx = tracker();
        tx.statementStarting();
        tx.wrote();
        assertEquals(List.of(), recorded, "it commits when it runs, after this call");
        tx.statementStarting();
        assertEquals(List.of(false), recorded);
        tx.statementStarting();
        assertEquals(List.of(false), recorded);
    }

    @Test
    void anAutocommitWriteIsRecordedWhenTheSessionAsksForItsLastWrite() {
        TransactionTracker tx = tracker();
        tx.wrote();
        consistency.lastWrite();   // a token asked for before the next statement
        assertEquals(List.of(false), recorded);
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "recorded once");
    }

    @Test
    void closingRecordsAPendingAutocommitWriteAndNothingAfterwards() {
        TransactionTracker tx = tracker();
        tx.wrote();
        tx.closing();
        assertEquals(List.of(false), recorded);
        assertTrue(tx.reusable(), "recorded at the close: the connection may serve another session");
        tx.run();
        assertEquals(List.of(false), recorded);
    }

    @Test
    void closingInsideATransactionNeverRecordsItsUncommittedWrite() {
        TransactionTracker tx = tracker();
        autoCommitOff(tx);
        tx.wrote();
        tx.closing();
        tx.run();
        assertEquals(List.of(), recorded);
    }

    @Test
    void withoutConsistencyStateWritesAreNeverRecorded() {
        TransactionTracker tx = tracker(new SessionRouting(), false);
        tx.wrote();
        tx.statementStarting();
        autoCommitOff(tx);
        tx.wrote();
        tx.committed(false);
        tx.closing();
        assertEquals(List.of(), recorded);
    }

    // ------------------------------------------------------------------ transactions begun by SQL

    @Test
    void aCommitAndChainOfWritesIsRecordedBeforeTheNextStatementOnceItRanNotWhenItIsRouted() {
        TransactionTracker tx = tracker();
        tx.statementStarting();
        tx.sqlBegan();
        tx.statementStarting();
        tx.wrote();
        tx.statementStarting();
        tx.sqlChained(true);
        assertEquals(List.of(), recorded, "routed, not run: a position read now would not have the commit");
        assertTrue(tx.inTransaction(), "the next transaction is open at once");
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "before the next statement: the commit ran");
        tx.sqlEnded(true);
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "the chained transaction wrote nothing");
    }

    @Test
    void aWriteOfTheChainedTransactionIsRecordedAtItsOwnCommit() {
        TransactionTracker tx = tracker();
        tx.sqlBegan();
        tx.statementStarting();
        tx.wrote();
        tx.statementStarting();
        tx.sqlChained(true);
        tx.statementStarting();   // records the first transaction's write
        tx.wrote();
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "not before the chained transaction commits");
        tx.sqlEnded(true);
        tx.statementStarting();
        assertEquals(List.of(false, false), recorded);
    }

    @Test
    void aRollbackAndChainRecordsNothing() {
        TransactionTracker tx = tracker();
        tx.sqlBegan();
        tx.statementStarting();
        tx.wrote();
        tx.statementStarting();
        tx.sqlChained(false);
        tx.statementStarting();
        tx.sqlEnded(true);
        tx.statementStarting();
        assertEquals(List.of(), recorded);
    }

    @Test
    void inManualCommitModeSetBySqlWritesAreRecordedOnceACommitRanAndTheNextTransactionIsOpen() {
        TransactionTracker tx = tracker();
        tx.statementStarting();
        tx.sqlManualCommits();   // SET autocommit = 0
        assertTrue(tx.inTransaction());
        tx.statementStarting();
        tx.wrote();
        tx.statementStarting();
        assertEquals(List.of(), recorded, "not committed: nothing to record");
        tx.sqlEnded(true);   // COMMIT
        assertTrue(tx.inTransaction(), "the next statement runs in a transaction again");
        assertEquals(List.of(), recorded, "routed, not run");
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "before the next statement: the commit ran");
        tx.wrote();
        tx.statementStarting();
        tx.sqlEnded(false);   // ROLLBACK
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "rolled back");
        tx.wrote();
        tx.statementStarting();
        tx.sqlAutoCommits();   // SET autocommit = 1 commits it
        assertFalse(tx.inTransaction());
        tx.statementStarting();
        assertEquals(List.of(false, false), recorded);
        tx.wrote();
        tx.statementStarting();
        assertEquals(List.of(false, false, false), recorded, "autocommit again: each write before the next statement");
    }

    @Test
    void anAutocommitWriteBeforeManualCommitModeIsRecordedWhenItBegins() {
        TransactionTracker tx = tracker();
        tx.statementStarting();
        tx.wrote();
        tx.sqlManualCommits();
        assertEquals(List.of(false), recorded);
    }

    @Test
    void aPreparedWriteExecutedAgainAfterAChainingCommitRecordsTheCommittedWriteFirst() {
        TransactionTracker tx = tracker();
        tx.statementStarting();
        tx.sqlManualCommits();
        tx.statementStarting();
        tx.wrote();                // a prepared insert
        tx.statementStarting();
        tx.sqlEnded(true);         // COMMIT
        tx.wrote();                // the insert executed again, without being routed
        assertEquals(List.of(false), recorded, "the commit ran: its write is recorded before the new one");
        tx.statementStarting();
        tx.sqlEnded(true);
        tx.statementStarting();
        assertEquals(List.of(false, false), recorded, "and the new one once its own commit ran");
    }

    @Test
    void settingAutocommitOffAgainCommitsNothing() {
        TransactionTracker tx = tracker();
        tx.statementStarting();
        tx.sqlManualCommits();
        tx.statementStarting();
        tx.wrote();
        tx.statementStarting();
        tx.sqlManualCommits();     // SET autocommit = 0 once more: the server commits nothing
        tx.statementStarting();
        assertEquals(List.of(), recorded);
        tx.sqlEnded(true);
        tx.statementStarting();
        assertEquals(List.of(false), recorded);
    }

    // ------------------------------------------------------------------ JTA

    @Test
    void aJtaTransactionBeginsAtItsFirstStatementAndOwnsTheAutocommitMode() {
        TransactionTracker tx = tracker();
        jta = "tx-1";
        assertFalse(tx.inTransaction(), "seen at the next statement");
        tx.statementStarting();
        assertTrue(tx.inTransaction());
        assertTrue(tx.autoCommit(), "JTA never switches autocommit");
        assertFalse(tx.ownsAutoCommit(), "a connection enlisted in it keeps what its transaction manager gave it");
        assertEquals(Kind.READ_WRITE, tx.kind());
        jta = null;
        tx.statementStarting();
        assertFalse(tx.inTransaction());
        assertTrue(tx.ownsAutoCommit());
    }

    @Test
    void workWithoutSqlFollowsAJtaTransactionToo() {
        TransactionTracker tx = tracker();
        jta = "tx-1";
        tx.follow();
        assertTrue(tx.inTransaction());
        assertFalse(tx.ownsAutoCommit());
    }

    @Test
    void aJtaTransactionsWriteIsRecordedOnceTheTransactionIsOver() {
        TransactionTracker tx = tracker();
        jta = "tx-1";
        tx.statementStarting();
        tx.wrote();
        tx.statementStarting();
        consistency.lastWrite();
        assertEquals(List.of(), recorded, "not committed yet");
        jta = null;
        tx.statementStarting();
        assertEquals(List.of(false), recorded);
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "recorded once");
    }

    @Test
    void aJtaTransactionRightAfterAnotherRecordsTheFirstsWriteAndBeginsAfresh() {
        TransactionTracker tx = tracker();
        jta = "tx-1";
        tx.statementStarting();
        assertEquals(Kind.READ_WRITE, tx.kind());
        tx.wrote();
        session.pushIntent(Intent.REPLICA);
        jta = "tx-2";
        tx.statementStarting();
        assertEquals(List.of(false), recorded);
        assertTrue(tx.inTransaction());
        assertEquals(Kind.READ_ONLY_PREFERRED, tx.kind(), "its own kind, decided at its own first statement");
        jta = null;
        tx.statementStarting();
        assertEquals(List.of(false), recorded, "the second one wrote nothing");
    }

    @Test
    void aJtaWriteWhoseConnectionIsReleasedBeforeTheCommitIsRecordedAfterTheCommit() {
        List<Runnable> afterCommit = new ArrayList<>();
        TransactionStatus registering = new TransactionStatus() {
            @Override
            public Object currentTransaction() {
                return jta;
            }

            @Override
            public boolean afterCommit(Runnable action) {
                afterCommit.add(action);
                return true;
            }
        };
        TransactionTracker tx = new TransactionTracker(new Served(null, session), registering, false, recorded::add);
        jta = "tx-1";
        tx.statementStarting();
        tx.wrote();
        tx.closing();                                  // Hibernate releases the connection before the commit
        assertEquals(List.of(), recorded, "no position is read before the commit");
        assertEquals(1, afterCommit.size());
        assertFalse(tx.reusable(), "its gate records the write at the commit: the connection serves no other session");
        jta = null;
        afterCommit.get(0).run();                      // the transaction committed
        assertEquals(List.of(false), recorded);
    }

    @Test
    void withATransactionStatusThatCannotWaitForTheCommitAJtaWriteIsRecordedAtTheRelease() {
        TransactionTracker tx = tracker();
        jta = "tx-1";
        tx.statementStarting();
        tx.wrote();
        tx.closing();
        assertEquals(List.of(false), recorded);
    }
}
