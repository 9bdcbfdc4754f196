package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;

import io.rwsplit.internal.replica.ReplicaNode;

/**
 * The session state of one logical connection as routing keeps it: whether an earlier statement left state that only
 * the primary connection has (the rest of the logical connection is then pinned there), and the session commands
 * ({@link SessionCommands}) its replica connections replay: recorded when they run on the primary, replayed on a
 * replica connection before its next statement, undone when it goes back to its pool. A replica connection that
 * cannot replay them pins the logical connection to the primary instead, with its settings.
 * <p>
 * Used by one thread at a time, like the logical connection.
 */
final class ConnectionSession {

    private final Router router;
    /** An earlier statement left session state on the primary connection: the rest stays there. */
    private boolean pinned;
    /** {@code LOCK TABLES} (MariaDB, MySQL) holds table locks: the rest stays on the primary until UNLOCK TABLES. */
    private boolean tableLocks;
    /**
     * PostgreSQL advisory locks or a {@code LOCK TABLE} may be held: the rest stays on the primary until the server,
     * asked after an unlock or a transaction end, shows none of this backend's.
     */
    private boolean serverLocks;
    /** An unlock or a transaction end since: whether {@link #serverLocks} still holds is asked before the next statement. */
    private boolean lockCheckDue;

    /** The advisory locks (session and transaction level) this backend holds on PostgreSQL. */
    private static final String ADVISORY_LOCKS_HELD =
            "select count(*) from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()";
    /** The session commands replayed on replica connections; null until the first one. */
    private SessionCommands commands;

    ConnectionSession(Router router) {
        this.router = router;
    }

    /** Back to a new connection's state: nothing pinned, no lock, no session command. */
    void clear() {
        pinned = false;
        tableLocks = false;
        serverLocks = false;
        lockCheckDue = false;
        commands = null;
    }

    /** Whether the rest of the logical connection stays on the primary. */
    boolean pinned() {
        return pinned || tableLocks || serverLocks;
    }

    /**
     * {@code LOCK TABLES} / {@code LOCK TABLE} ran on the primary: on PostgreSQL ({@code postgres}) the lock lasts the
     * transaction, elsewhere until {@code UNLOCK TABLES}.
     */
    void lockedTables(boolean postgres) {
        if (postgres) {
            serverLocks = true;
        }
        else {
            tableLocks = true;
        }
    }

    /** {@code UNLOCK TABLES}: every table lock of the session is released. */
    void unlockedTables() {
        tableLocks = false;
    }

    /** A PostgreSQL advisory lock was taken (session or transaction level). */
    void lockedAdvisory() {
        serverLocks = true;
    }

    /** An advisory unlock or a transaction end: locks may be released, which the server is asked before the next statement. */
    void mayHaveUnlocked() {
        lockCheckDue = serverLocks;
    }

    /**
     * Before a statement outside a transaction, after {@link #mayHaveUnlocked}: asks {@code primary} (the open primary
     * connection, null when there is none) whether this backend still holds an advisory lock; a transaction's locks
     * ended with it. Without an open primary connection no lock is held. A check that fails keeps the pin.
     */
    void checkLocks(Connection primary) {
        if (!lockCheckDue) {
            return;
        }
        lockCheckDue = false;
        if (primary == null) {
            serverLocks = false;
            return;
        }
        try (java.sql.Statement s = primary.createStatement(); java.sql.ResultSet rs = s.executeQuery(ADVISORY_LOCKS_HELD)) {
            serverLocks = !rs.next() || rs.getLong(1) > 0;
        }
        catch (SQLException e) {
            Router.log.debug("[{}] asking the primary whether this connection still holds advisory locks failed; it"
                    + " stays on the primary: {}", router.label(), e.getMessage());
        }
    }

    /** The primary connection now holds session state (user variables, temporary tables, locks...). */
    void pin() {
        pinned = true;
    }

    /**
     * A session command ({@code SET time_zone ...}) went to the primary connection {@code primary}: the replica
     * connection replays it before its next statement, and every replica connection opened later replays the whole
     * history. When the history is full, the rest of the logical connection stays on the primary instead.
     */
    void command(String sql, boolean inTransaction, Connection primary) throws SQLException {
        if (pinned) {
            return;
        }
        if (commands == null) {
            commands = new SessionCommands(router.settingsFollowTransactions(primary));
        }
        if (!commands.record(sql, inTransaction)) {
            Router.log.debug("[{}] more than {} session commands: the rest of this connection stays on the primary",
                    router.label(), SessionCommands.LIMIT);
            pin();
        }
    }

    /** The transaction ended; a rollback undoes its session commands where the database does (PostgreSQL). */
    void transactionEnded(boolean rolledBack) {
        mayHaveUnlocked();
        if (commands != null) {
            commands.transactionEnded(rolledBack);
        }
    }

    /**
     * A rollback to a savepoint: on PostgreSQL it undoes the session commands after the savepoint on the primary,
     * which the history cannot tell apart: the rest of the logical connection stays on the primary.
     */
    void rolledBackToSavepoint() {
        if (commands != null && commands.changedInTransaction()) {
            pin();
        }
    }

    /** A new replica connection was opened: it has replayed nothing yet. */
    void replicaOpened() {
        if (commands != null) {
            commands.replicaOpened();
        }
    }

    /**
     * Brings {@code c}, the replica connection to {@code node}, up to the session commands; false when it cannot be
     * (the replica refused one, or its pool cannot be reset afterwards): then the rest of the logical connection
     * stays on the primary, with its settings.
     */
    boolean replayOn(ReplicaNode node, Connection c, boolean inTransaction) {
        if (commands == null) {
            return true;
        }
        if (node.pool() == null) {
            Router.log.debug("[{}] replica '{}' has a pool routing cannot reset: session commands keep this connection"
                    + " on the primary", router.label(), node.name());
            pin();
            return false;
        }
        try {
            commands.replayOn(c, inTransaction);
            return true;
        }
        catch (SQLException e) {
            Router.log.debug("[{}] replaying session commands on replica '{}' failed, this connection stays on the"
                    + " primary: {}", router.label(), node.name(), e.getMessage());
            pin();
            return false;
        }
    }

    /**
     * Whether {@code c}, the replica connection to {@code node} going back to its pool, may be used again: it replayed
     * no session command, or it was reset (a reset that fails says no: its pool closes it for good).
     */
    boolean resetForReuse(ReplicaNode node, Connection c) throws SQLException {
        return commands == null || !commands.replicaChanged() || node.pool() == null || commands.reset(c, node.pool());
    }
}
