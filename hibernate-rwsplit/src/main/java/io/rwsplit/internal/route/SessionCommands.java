package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.rwsplit.internal.replica.PoolControl;

/**
 * The session commands of one logical connection ({@link SessionState.Effect#REPLAYED}: {@code SET time_zone},
 * {@code SET NAMES}, {@code SET search_path}...), in the order they ran on the primary, and how far the replica
 * connection has replayed them. A bounded history, as MaxScale keeps one: past {@value #LIMIT} commands the
 * logical connection stays on the primary instead.
 * <p>
 * Where the database undoes a session {@code SET} on rollback (PostgreSQL), the commands of a transaction that
 * rolls back leave the history, and the replica connection, which took part in the transaction, is known to
 * have undone what it replayed in it. A replica connection that replayed anything goes back to its pool
 * reset: PostgreSQL {@code RESET ROLE}, {@code RESET ALL} and the pool's init SQL again, elsewhere closed for good (the pool opens
 * a fresh one), since MariaDB and MySQL have no statement that undoes every session setting.
 * <p>
 * Used by one thread at a time, like the logical connection.
 */
final class SessionCommands {

    /** How many session commands one logical connection may replay. */
    static final int LIMIT = 64;

    private final boolean transactional;
    private final String[] commands = new String[LIMIT];
    private int size;
    /** Commands that stay whatever the current transaction does. */
    private int committed;
    /** Commands the replica connection has run. */
    private int replayed;
    /** Commands the replica connection has run outside a transaction or in one that committed. */
    private int replayedCommitted;

    /** @param transactional whether a rollback undoes the session commands of its transaction (PostgreSQL) */
    SessionCommands(boolean transactional) {
        this.transactional = transactional;
    }

    /** A session command ran (or is about to run) on the primary; false when the history is full. */
    boolean record(String sql, boolean inTransaction) {
        if (size == LIMIT) {
            return false;
        }
        commands[size++] = sql;
        if (!inTransaction) {
            committed = size;
        }
        return true;
    }

    /** A new replica connection: it has replayed nothing yet. */
    void replicaOpened() {
        replayed = 0;
        replayedCommitted = 0;
    }

    /** Runs on {@code replica} the commands it has not run yet, in order. */
    void replayOn(Connection replica, boolean inTransaction) throws SQLException {
        if (replayed < size) {
            try (Statement s = replica.createStatement()) {
                while (replayed < size) {
                    s.execute(commands[replayed]);
                    replayed++;
                }
            }
        }
        if (!inTransaction) {
            replayedCommitted = replayed;
        }
    }

    /** The transaction ended: committed (or autocommit switched on), or rolled back. */
    void transactionEnded(boolean rolledBack) {
        if (rolledBack && transactional) {
            for (int i = committed; i < size; i++) {
                commands[i] = null;
            }
            size = committed;
            replayed = replayedCommitted;
        }
        else {
            committed = size;
            replayedCommitted = replayed;
        }
    }

    /** Whether a rollback to a savepoint may have undone some of the commands on one connection and not the other. */
    boolean changedInTransaction() {
        return transactional && size > committed;
    }

    /** Whether the replica connection runs under settings its pool did not give it. */
    boolean replicaChanged() {
        return replayed > 0;
    }

    /**
     * Makes {@code replica} as its pool gave it out: {@code RESET ROLE}, {@code RESET ALL} and the pool's init SQL on
     * PostgreSQL (a custom setting such as {@code my.setting} stays defined, empty, as PostgreSQL keeps it);
     * elsewhere the pool closes it for good. Returns whether the caller must still give it back to the pool.
     */
    boolean reset(Connection replica, PoolControl pool) throws SQLException {
        replayed = 0;
        replayedCommitted = 0;
        if (transactional) {
            try (Statement s = replica.createStatement()) {
                s.execute("RESET ROLE");    // RESET ALL leaves the role as SET ROLE made it
                s.execute("RESET ALL");
                String init = pool.initSql();
                if (init != null && !init.isBlank()) {
                    s.execute(init);
                }
                return true;
            }
            catch (SQLException e) {
                pool.evict(replica);
                return false;
            }
        }
        pool.evict(replica);
        return false;
    }
}
