package io.rwsplit.internal.route;

import io.rwsplit.Intent;
import io.rwsplit.RouteReason;
import io.rwsplit.spi.TransactionStatus;

/**
 * The transaction state of one logical connection, and the only place it changes. A transaction has one
 * {@link #begin()} (switching autocommit off, after a commit or a rollback in manual-commit mode, or when a
 * JTA transaction is seen), its kind is fixed by its first statement ({@link #kind()}), and it ends by
 * {@link #committed}, {@link #rolledBack()} or autocommit switched back on. Writes routed to the primary
 * are remembered here and reported to the session's consistency state once they have committed, through
 * the {@link WriteRecorder} (which reads the commit's position on the primary connection).
 * <p>
 * No JDBC calls: the facade applies the physical effects and reports their outcome here. Confined to the
 * connection's thread.
 */
final class TransactionTracker implements Runnable {

    /** The kind of the current transaction, decided at its first statement. */
    enum Kind {
        /** Autocommit: no transaction. */
        NONE,
        /** Begun, no statement yet. */
        PENDING,
        /** Not declared read-only: primary from its first statement. */
        READ_WRITE,
        /** Declared read-only through JDBC (Connection#setReadOnly, read-only session): writes fail. */
        READ_ONLY_STRICT,
        /** Read-only by preference (default read-only session, onReplica): a write moves the rest to the primary. */
        READ_ONLY_PREFERRED
    }

    /** Records a committed write for read-your-writes (reads its position on the primary connection). */
    @FunctionalInterface
    interface WriteRecorder {
        /**
         * @param justCommitted whether the primary connection has just been told to commit its transaction (no
         *                      transaction is open on it), rather than having run an autocommit write or taken part
         *                      in an external transaction
         */
        void recordCommittedWrite(boolean justCommitted);

        /**
         * Records the writes of an external transaction that has just committed, its connection given back: their
         * position is read as the primary's position now, on another connection.
         */
        default void recordExternalCommit() {
            recordCommittedWrite(false);
        }
    }

    /** Whom the connection serves ({@link Served#session}: the session whose writes are recorded). */
    private final Served served;
    private final TransactionStatus transactions;
    private boolean readOnlySession;
    private final WriteRecorder recorder;

    private boolean autoCommit = true;
    private boolean readOnly;
    private boolean closed;
    private Kind kind = Kind.NONE;
    private boolean softReadOnlyAtBegin;
    /** The current transaction found no replica: it stays on the primary (one consistent snapshot). */
    private boolean replicaUnavailable;
    /** The JTA (or other external) transaction the last statement ran in, {@code null} outside one. */
    private Object externalTx;
    /** The primary connection ran a statement that may have written, not yet recorded for read-your-writes. */
    private boolean wrote;
    /** The primary is in a transaction begun by SQL ({@code BEGIN}, {@code START TRANSACTION}) while JDBC autocommits. */
    private boolean sqlTransaction;
    /**
     * A {@code COMMIT AND CHAIN} of writes was routed: they are recorded before the next statement, once the commit
     * ran, though the next transaction is open by then ({@link #sqlChained}).
     */
    private boolean chainedCommit;
    /**
     * SQL switched the server's autocommit off ({@code SET autocommit = 0}, MySQL and MariaDB) while JDBC autocommits:
     * every statement runs in a transaction that {@code COMMIT} ends and the next statement begins again.
     */
    private boolean sqlManualCommits;
    /**
     * How many times what a read routed earlier on this connection depends on changed: a statement that may write
     * routed or executed, a transaction begun or ended. A prepared read routed when it was lower is routed again.
     */
    private long changes;
    /**
     * What the server commits is no longer followed ({@link #writesUntracked}): until the connection serves another
     * session, a write stays pending after each recording.
     */
    private boolean untrackedWrites;
    /** Whether a savepoint of the current read-only transaction is on its replica connection. */
    private boolean savepointsOnReplica;
    /** Whether the consistency level was applied at the current read-only transaction's first read. */
    private boolean consistencyChecked;
    /** Why the current read-only transaction reads from the primary (its consistency level said so), or null. */
    private RouteReason primaryReason;
    /** Whether its close left the recording of an external transaction's writes to that transaction's commit. */
    private boolean recordingAfterClose;

    TransactionTracker(Served served, TransactionStatus transactions, boolean readOnlySession,
                       WriteRecorder recorder) {
        this.served = served;
        this.transactions = transactions;
        this.readOnlySession = readOnlySession;
        this.recorder = recorder;
    }

    /** Whether the logical connection was asked for through {@code getReadOnlyConnection()} (nothing else changes). */
    void readOnlySession(boolean readOnlySession) {
        this.readOnlySession = readOnlySession;
    }

    /**
     * Serves {@code session} as a new tracker would ({@code readOnlySession}: asked for through
     * {@code getReadOnlyConnection()}), after {@link #closing} ended its last one; null while it waits.
     */
    void serve(boolean readOnlySession) {
        this.readOnlySession = readOnlySession;
        autoCommit = true;
        readOnly = false;
        closed = false;
        if (kind != Kind.NONE) {   // a reference written into these long-lived parts costs a barrier: only when it changes
            kind = Kind.NONE;
        }
        softReadOnlyAtBegin = false;
        replicaUnavailable = false;
        externalTx = null;
        wrote = false;
        sqlTransaction = false;
        chainedCommit = false;
        sqlManualCommits = false;
        changes = 0;
        consistencyChecked = false;
        primaryReason = null;
        recordingAfterClose = false;
        untrackedWrites = false;
        savepointsOnReplica = false;
    }

    /**
     * Whether another session may use the connection once closed: not when its close left an external transaction's
     * commit to record its writes later, through this connection's gate.
     */
    boolean reusable() {
        return closed && !recordingAfterClose;
    }

    // ------------------------------------------------------------------ the one begin

    /** A transaction begins: nothing of the previous one carries over. */
    private void begin() {
        changes++;
        kind = Kind.PENDING;
        softReadOnlyAtBegin = served.session.intent() == Intent.REPLICA || served.session.defaultReadOnly();
        replicaUnavailable = false;
        consistencyChecked = false;
        primaryReason = null;
        savepointsOnReplica = false;
    }

    /** Back to autocommit routing. */
    private void end() {
        changes++;
        kind = Kind.NONE;
        replicaUnavailable = false;
        consistencyChecked = false;
        primaryReason = null;
        savepointsOnReplica = false;
    }

    /** A savepoint of this read-only transaction was set on its replica connection: the others go there too. */
    void savepointOnReplica() {
        savepointsOnReplica = true;
    }

    /** Whether a savepoint of this transaction is on its replica connection ({@link #savepointOnReplica}). */
    boolean savepointsOnReplica() {
        return savepointsOnReplica;
    }

    // ------------------------------------------------------------------ statements

    /**
     * Called before each routed statement: follows a JTA transaction, and records the write of the previous
     * autocommit statement, or of a transaction a {@code COMMIT AND CHAIN} ended (it has committed by now).
     */
    void statementStarting() {
        if (autoCommit) {
            followExternalTransaction();
        }
        if (wrote && (autoCommits() || chainedCommit)) {
            recordWrite();
            if (untrackedWrites && autoCommits() && served.session.tracksConsistency()) {
                // what this statement commits (a COMMIT of a transaction the string left open) is not in it yet:
                // a token asked for before the next statement reads the position again
                served.session.consistency().pendingWrite(this);
            }
        }
    }

    /** Whether each statement commits when it runs: JDBC autocommit, no JTA, no transaction begun by SQL. */
    private boolean autoCommits() {
        return autoCommit && externalTx == null && !sqlTransaction;
    }

    /**
     * {@code BEGIN} or {@code START TRANSACTION} was routed (to the primary) while JDBC autocommits: the rest of the
     * transaction runs there, and its writes count once it commits, as in a JDBC transaction.
     */
    void sqlBegan() {
        if (sqlManualCommits && sqlTransaction) {
            sqlChained(true);   // BEGIN in manual-commit mode commits the open transaction
            return;
        }
        if (!autoCommit || externalTx != null || sqlTransaction) {
            return;
        }
        if (wrote && !chainedCommit) {
            recordWrite();    // an autocommit write before it
        }
        sqlTransaction = true;
        begin();
        kind = Kind.READ_WRITE;
    }

    /**
     * {@code COMMIT} (or {@code ROLLBACK}) of a transaction begun by SQL was routed: back to autocommit routing. A
     * commit's writes are recorded before the next statement, once the commit has run; a rollback's are dropped.
     */
    void sqlEnded(boolean committed) {
        if (sqlManualCommits) {
            sqlChained(committed);   // the next statement runs in a transaction again
            return;
        }
        endSqlTransaction(committed);
    }

    private void endSqlTransaction(boolean committed) {
        if (!sqlTransaction) {
            return;
        }
        sqlTransaction = false;
        end();
        if (!committed) {
            writeRecorded();
        }
        else if (wrote && served.session.tracksConsistency()) {
            served.session.consistency().pendingWrite(this);
        }
    }

    /**
     * {@code COMMIT AND CHAIN} (or {@code ROLLBACK AND CHAIN}) was routed: the transaction begun by SQL ends, and the
     * next one is open at once, on the primary. A commit's writes are recorded before the next statement, once the
     * commit has run, not now: the position read now would not have the commit yet.
     */
    void sqlChained(boolean committed) {
        boolean ending = sqlTransaction;
        endSqlTransaction(committed);
        if (ending && committed && wrote) {
            chainedCommit = true;
        }
        sqlBegan();
    }

    /**
     * {@code SET autocommit = 0} was routed (to the primary, which it pins) while JDBC autocommits: from now on each
     * statement runs in a transaction, and writes count once a {@code COMMIT} ran, as in a transaction begun by SQL.
     */
    void sqlManualCommits() {
        if (!autoCommit || externalTx != null || sqlManualCommits) {
            return;   // set again: the server commits nothing
        }
        sqlBegan();
        sqlManualCommits = true;
    }

    /** {@code SET autocommit = 1} was routed: it commits the transaction open in manual-commit mode. */
    void sqlAutoCommits() {
        if (sqlManualCommits) {
            sqlManualCommits = false;
            endSqlTransaction(true);
        }
    }

    /** Follows a JTA transaction, for work that carries no SQL (it records nothing). */
    void follow() {
        if (autoCommit) {
            followExternalTransaction();
        }
    }

    /** The kind of the current transaction; its first statement decides it. */
    Kind kind() {
        if (kind == Kind.PENDING) {
            if (readOnly || readOnlySession) {
                kind = Kind.READ_ONLY_STRICT;
            }
            else if (softReadOnlyAtBegin) {
                kind = Kind.READ_ONLY_PREFERRED;
            }
            else {
                kind = Kind.READ_WRITE;
            }
        }
        return kind;
    }

    boolean inTransaction() {
        return kind != Kind.NONE;
    }

    /** Whether the connection is read-only: {@code Connection#setReadOnly(true)} or a read-only session. */
    boolean readOnlyConnection() {
        return readOnly || readOnlySession;
    }

    /** A write in a read-only-by-preference transaction: the rest of it goes to the primary. */
    void writeInPreferredReadOnly() {
        if (kind() == Kind.READ_ONLY_PREFERRED) {
            kind = Kind.READ_WRITE;
        }
    }

    /** A statement that may write was routed to the primary, or one routed so earlier executes again. */
    void wrote() {
        if (wrote && chainedCommit) {
            recordWrite();   // a chaining commit ran before this write (a prepared one executes without being routed)
        }
        wrote = true;
        changes++;
        if (autoCommits() && served.session.tracksConsistency()) {
            // it commits when it runs; recorded before the next statement, or earlier if the session asks (token)
            served.session.consistency().pendingWrite(this);
        }
    }

    /**
     * What the server commits is no longer followed statement by statement: a string of several statements was routed
     * (to the primary, which it pins), which may have begun a transaction and left it open, committed one, or written
     * in one that a later statement commits; or the application took the driver's own connection
     * ({@link java.sql.Connection#unwrap}), where anything may run. So from now on until the connection serves another
     * session a write is always pending: recorded before each statement in autocommit, at each commit, and at the
     * close, so that whatever is committed counts for read-your-writes (a position read per statement, on such
     * connections only).
     */
    void writesUntracked() {
        untrackedWrites = true;
        wrote = true;
        changes++;
        if (autoCommits() && served.session.tracksConsistency()) {
            served.session.consistency().pendingWrite(this);
        }
    }

    /** How many times what a read routed earlier depends on changed so far ({@link #changes}). */
    long changes() {
        return changes;
    }

    boolean replicaUnavailable() {
        return replicaUnavailable;
    }

    /** The current transaction found no replica: the rest of it stays on the primary. */
    void replicaUnavailableInTransaction() {
        replicaUnavailable = true;
    }

    /** Whether the consistency level still has to be applied at this read-only transaction's first read. */
    boolean needsConsistencyCheck() {
        return !consistencyChecked;
    }

    /** The outcome of the consistency check of this read-only transaction's first read. */
    void consistencyChecked(RouteReason primaryReasonOrNull) {
        consistencyChecked = true;
        primaryReason = primaryReasonOrNull;
    }

    /** Why this read-only transaction reads from the primary, or null when it reads from a replica. */
    RouteReason primaryReason() {
        return primaryReason;
    }

    // ------------------------------------------------------------------ boundaries

    boolean autoCommit() {
        return autoCommit;
    }

    /** Whether a physical connection opened now must take over the autocommit mode (not one enlisted in JTA). */
    boolean ownsAutoCommit() {
        return externalTx == null;
    }

    boolean readOnly() {
        return readOnly;
    }

    void readOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    /** Autocommit is about to be switched off: a transaction begins. */
    void autoCommitSwitchingOff() {
        if (wrote) {
            recordWrite();
        }
        sqlTransaction = false;
        sqlManualCommits = false;   // the driver sets the server's autocommit itself from now on
        begin();
    }

    /**
     * Autocommit was switched on or off on the physical connections. Switching it on commits the open transaction:
     * its write is recorded, also when a connection refused the switch (like a failed commit, its outcome is unknown,
     * and reading one's own write from the primary is safe, missing it is not).
     */
    void autoCommitSwitched(boolean on) {
        this.autoCommit = on;
        if (on) {
            end();
            if (wrote) {
                recordWrite();
            }
        }
    }

    /**
     * The physical connections were told to commit. A commit whose outcome is unknown (it failed on the
     * primary, perhaps after the server applied it) still counts as a write for read-your-writes: reading
     * one's own write from the primary is safe, missing it is not. The next transaction begins either way.
     */
    void committed(boolean writeRecorded) {
        if (autoCommit) {
            return;
        }
        if (writeRecorded) {
            writeRecorded();
        }
        else if (wrote) {
            recordWrite(true);
        }
        begin();
    }

    /** Whether the transaction being committed wrote on the primary: its commit is to be recorded. */
    boolean committingAWrite() {
        return wrote && !autoCommit;
    }

    /** The physical connections were told to roll back: nothing was written that anyone can read. */
    void rolledBack() {
        if (autoCommit) {
            return;
        }
        wrote = untrackedWrites;
        begin();
    }

    /**
     * The logical connection closes: an autocommit write is recorded now. A write of a JTA transaction that is still
     * active is recorded once it has committed, where the {@link TransactionStatus} can tell ({@code afterCommit}):
     * Hibernate may release a JTA session's connection before the transaction completes (Quarkus always does), and a
     * position read now would be one from before the commit, which a replica may have applied without the write.
     */
    void closing() {
        if (wrote && autoCommit) {
            if (externalTx != null && transactions.currentTransaction() != null && served.session.tracksConsistency()
                    && transactions.afterCommit(recorder::recordExternalCommit)) {
                recordingAfterClose = true;
                writeRecorded();
            }
            else {
                recordWrite();
            }
        }
        closed = true;
    }

    /**
     * JTA transactions never call {@code setAutoCommit}: their boundaries come from the router's
     * {@link TransactionStatus}. A new external transaction begins like a JDBC one (its first statement
     * decides its kind); leaving it returns to autocommit routing. Its writes are recorded for
     * read-your-writes once it is over (seen here, or when the connection is closed after the transaction
     * completed, which is when Hibernate releases a JTA session's connection).
     */
    private void followExternalTransaction() {
        Object current = transactions.currentTransaction();
        if (current == null ? externalTx == null : current.equals(externalTx)) {
            return;
        }
        if (wrote && externalTx != null) {
            recordWrite();
        }
        externalTx = current;
        if (current == null) {
            end();
        }
        else {
            begin();
        }
    }

    /**
     * The session asks for the autocommit write not yet recorded (it needs a token now): recorded if it is
     * still pending. Handed to the session's consistency state by {@link #wrote()}.
     */
    @Override
    public void run() {
        if (wrote && (autoCommits() || chainedCommit) && !closed) {
            recordWrite();
        }
    }

    private void recordWrite() {
        recordWrite(false);
    }

    private void recordWrite(boolean justCommitted) {
        writeRecorded();
        if (served.session.tracksConsistency()) {
            recorder.recordCommittedWrite(justCommitted);
        }
    }

    /** The write is (or is being) recorded: nothing is pending any more. */
    private void writeRecorded() {
        wrote = untrackedWrites;   // what the server commits next is not known
        chainedCommit = false;
        served.session.noPendingWrite();
    }

    @Override
    public String toString() {
        return kind.toString();
    }
}
