package io.rwsplit.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.concurrent.Executor;

import io.rwsplit.replica.ReplicaNode;
import io.rwsplit.replica.ReplicaSet;


/**
 * The physical connections behind one logical connection: at most one primary connection and one replica
 * connection, each opened when first needed and kept until the logical connection closes (or, for the
 * replica, until a failed read swaps it). Connection settings made on the logical connection
 * ({@link ConnectionSettings}) are applied to the open connections and to the ones opened later;
 * a new connection takes over the transaction's autocommit mode. No routing decisions: the facade asks for
 * the primary or a replica, this class opens it.
 * <p>
 * Used by one thread at a time, like the logical connection.
 */
final class PhysicalConnections {

    /** Something to do on a physical connection. */
    @FunctionalInterface
    interface Action {
        void apply(Connection connection) throws SQLException;
    }

    private final Router router;
    private final TransactionTracker tx;

    private Connection primary;
    private Connection replica;
    private ReplicaNode replicaNode;

    /** Whether the logical connection is pinned to the primary, and the session commands replica connections replay. */
    private final ConnectionSession session;

    /** The replicas whose pools could not lend a connection in time to the statement being routed; null until one. */
    private java.util.BitSet busyPools;
    /** The last such pool timeout, or null: the statement then found no replica pool busy. */
    private SQLException poolTimeout;

    private final ConnectionSettings settings;

    PhysicalConnections(Router router, TransactionTracker tx, ConnectionSettings settings, ConnectionSession session) {
        this.router = router;
        this.tx = tx;
        this.settings = settings;
        this.session = session;
    }

    // ------------------------------------------------------------------ what is open

    /** The open primary connection, or null. */
    Connection openPrimary() {
        return primary;
    }

    /** The open replica connection, or null. */
    Connection openReplica() {
        return replica;
    }

    /** The replica behind the open replica connection, or null. */
    ReplicaNode replicaNode() {
        return replicaNode;
    }

    /** The replica behind {@code c} when {@code c} is the replica connection, else null. */
    ReplicaNode replicaNodeOf(Connection c) {
        return c != null && c == replica ? replicaNode : null;
    }

    /**
     * The physical connection {@code route} runs on: the primary connection (opened if needed), or the open replica
     * connection to its replica, which routing opened when it chose that replica.
     */
    Connection connection(StatementRoute route) throws SQLException {
        if (route.node() == null) {
            return primary();
        }
        if (route.node() != replicaNode) {
            throw new IllegalStateException("hibernate-rwsplit: " + route + " is not on the open replica connection ("
                    + replicaNode + ")");
        }
        return replica;
    }

    /**
     * A statement is being routed: the pools that were busy for the previous one may lend again, except in a
     * transaction that gave up on replicas because of them (it stays on the primary, for that reason).
     */
    void statementStarting() {
        if (poolTimeout != null && !tx.replicaUnavailable()) {
            poolTimeout = null;
            busyPools.clear();
        }
    }

    /**
     * The last timeout of a replica pool that could not lend a connection to the statement being routed (the replica
     * stays in rotation, and another one, or the primary, serves the read), or null when no pool was busy.
     */
    SQLException poolTimeout() {
        return poolTimeout;
    }

    // ------------------------------------------------------------------ opening

    /** The primary connection, opened (with the transaction's autocommit and the settings) if needed. */
    Connection primary() throws SQLException {
        Connection c = primary;
        if (c == null) {
            tx.follow();
            c = router.primary().acquire();
            try {
                // a connection enlisted in a JTA transaction keeps the autocommit its transaction manager gave it
                if (tx.ownsAutoCommit() && c.getAutoCommit() != tx.autoCommit()) {
                    c.setAutoCommit(tx.autoCommit());
                }
                settings.applyTo(c);
            }
            catch (SQLException | RuntimeException e) {
                router.primary().release(c);
                throw e;
            }
            primary = c;
        }
        return c;
    }

    /**
     * The open replica connection, or one to a replica the balancer chooses (trying each replica at most
     * once, and none whose pool was busy for this statement); null when no replica can serve. A transaction that
     * found none stays on the primary.
     */
    Connection replica(boolean inTransaction) throws SQLException {
        if (session.pinned()) {
            return null;
        }
        if (replica != null) {
            return session.replayOn(replicaNode, replica, !tx.autoCommit()) ? replica : null;
        }
        if (inTransaction && tx.replicaUnavailable()) {
            return null;
        }
        ReplicaSet set = router.replicas();
        for (int attempt = 0; attempt < set.nodes().size(); attempt++) {
            ReplicaNode node = poolTimeout == null ? set.choose() : set.choose(this::mayLend);
            if (node == null) {
                break;
            }
            Connection c = open(node);
            if (c != null) {
                return c;
            }
        }
        if (inTransaction) {
            // the whole read-only transaction then stays on the primary, for one consistent snapshot
            tx.replicaUnavailableInTransaction();
        }
        return null;
    }

    /**
     * Opens a connection to {@code node} as the replica connection; null on failure (the node marked down), and
     * when its pool could not lend one in time ({@link #poolTimeout()}; it is not asked again for this statement).
     */
    Connection open(ReplicaNode node) throws SQLException {
        if (session.pinned() || !mayLend(node)) {
            return null;
        }
        Connection c;
        try {
            c = router.borrow(node);
        }
        catch (SQLException timeout) {
            Router.log.debug("[{}] replica '{}' lent no connection in time, it stays in rotation: {}", router.label(),
                    node.name(), timeout.getMessage());
            if (busyPools == null) {
                busyPools = new java.util.BitSet(router.replicas().nodes().size());
            }
            busyPools.set(node.index());
            poolTimeout = timeout;
            return null;
        }
        if (c == null) {
            return null;
        }
        try {
            if (c.getAutoCommit() != tx.autoCommit()) {
                c.setAutoCommit(tx.autoCommit());
            }
            settings.applyTo(c);
        }
        catch (SQLException | RuntimeException e) {
            router.replicas().markDown(node, e);
            router.giveBack(node, c);
            return null;
        }
        replica = c;
        replicaNode = node;
        session.replicaOpened();
        return session.replayOn(node, c, !tx.autoCommit()) ? c : null;
    }

    /** Whether {@code node}'s pool has not yet failed to lend a connection in time to the statement being routed. */
    private boolean mayLend(ReplicaNode node) {
        return poolTimeout == null || !busyPools.get(node.index());
    }

    /** The replica connection to {@code failed} broke under a read: it goes back to its pool (which discards it). */
    void dropReplica(ReplicaNode failed) {
        if (replicaNode != failed) {
            return;
        }
        Connection broken = replica;
        replica = null;
        replicaNode = null;
        try {
            giveBack(failed, broken);
        }
        catch (SQLException ignored) {
            // it is broken: the pool discards it
        }
    }

    /** The primary connection broke (or the primary went away): it goes back to its pool, which discards it. */
    void dropPrimary() {
        Connection broken = primary;
        primary = null;
        if (broken != null) {
            try {
                router.primary().release(broken);
            }
            catch (SQLException | RuntimeException ignored) {
                // it is broken: the pool discards it
            }
        }
    }

    // ------------------------------------------------------------------ settings

    /** Applies a setting change to every open connection. */
    void forEachOpen(Action action) throws SQLException {
        if (primary != null) {
            action.apply(primary);
        }
        if (replica != null) {
            action.apply(replica);
        }
    }

    /**
     * Applies {@code action} to the primary, then to the replica, both attempted whatever the first did;
     * returns the failures, the replica's chained to the primary's, or null.
     */
    SQLException applyToBoth(Action action) {
        return applyToReplica(action, apply(primary, action, null));
    }

    /** Applies {@code action} to the replica connection, if open; returns {@code failure} with its failure chained. */
    SQLException applyToReplica(Action action, SQLException failure) {
        return apply(replica, action, failure);
    }

    private static SQLException apply(Connection c, Action action, SQLException failure) {
        if (c == null) {
            return failure;
        }
        try {
            action.apply(c);
            return failure;
        }
        catch (SQLException e) {
            return chain(failure, e);
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Gives every connection back to its pool; returns the failures (chained), or null. The primary connection goes
     * back even when giving back the replica's throws, and the other way round.
     */
    SQLException releaseAll() {
        SQLException failure = null;
        Connection r = replica;
        ReplicaNode node = replicaNode;
        Connection p = primary;
        replica = null;
        replicaNode = null;
        primary = null;
        try {
            if (r != null) {
                giveBack(node, r);
            }
        }
        catch (SQLException e) {
            failure = e;
        }
        finally {
            if (p != null) {
                try {
                    router.primary().release(p);
                }
                catch (SQLException e) {
                    failure = chain(failure, e);
                }
            }
        }
        return failure;
    }

    /**
     * Gives a replica connection back to its pool as it came out: reset first if it replayed session commands (a
     * reset that fails closes it for good). It goes back even when the reset throws.
     */
    private void giveBack(ReplicaNode node, Connection c) throws SQLException {
        boolean reusable = true;
        try {
            reusable = session.resetForReuse(node, c);
        }
        finally {
            if (reusable) {
                router.giveBack(node, c);
            }
            else {
                node.returned(c);     // closed for good by its pool
            }
        }
    }

    /** Aborts both connections; the replica's even when the primary's abort throws. */
    void abort(Executor executor) throws SQLException {
        try {
            if (primary != null) {
                primary.abort(executor);
            }
        }
        finally {
            if (replica != null) {
                replica.abort(executor);
            }
        }
    }

    boolean isValid(int timeout) throws SQLException {
        return (primary == null || primary.isValid(timeout)) && (replica == null || replica.isValid(timeout));
    }

    SQLWarning warnings() throws SQLException {
        SQLWarning warnings = primary == null ? null : primary.getWarnings();
        if (replica != null) {
            SQLWarning replicaWarnings = replica.getWarnings();
            if (warnings == null) {
                warnings = replicaWarnings;
            }
            else if (replicaWarnings != null) {
                warnings.setNextWarning(replicaWarnings);
            }
        }
        return warnings;
    }

    static SQLException chain(SQLException first, SQLException next) {
        if (first == null) {
            return next;
        }
        first.setNextException(next);
        return first;
    }

    @Override
    public String toString() {
        return "primary=" + (primary != null) + ", replica=" + replicaNode;
    }
}
