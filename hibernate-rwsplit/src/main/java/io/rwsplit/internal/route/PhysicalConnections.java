package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.DataTruncation;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.concurrent.Executor;


/**
 * The physical connections behind one logical connection: at most one primary connection and one
 * {@link ReplicaConnection}, each opened when first needed and kept until the logical connection closes (or, for the
 * replica, until a failed read swaps it). Connection settings made on the logical connection
 * ({@link ConnectionSettings}) are applied to the open connections and to the ones opened later;
 * a new connection takes over the transaction's autocommit mode. No routing decisions: routing asks for
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
    private final ConnectionSettings settings;
    private final ReplicaConnection replica;
    /** Whom the parts serve: a borrow that ends after an abort finds the facade closed; null in some unit tests. */
    private final Served served;
    /** {@link #primary}, taken out by whoever comes first when a borrow and an abort meet. */
    private static final java.lang.invoke.VarHandle PRIMARY;

    static {
        try {
            PRIMARY = java.lang.invoke.MethodHandles.lookup().findVarHandle(PhysicalConnections.class, "primary",
                    Connection.class);
        }
        catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Connection primary;
    /** Whether {@link #primary} was found moved to a replica in a transaction, which keeps it to its end. */
    private boolean primaryMoved;

    PhysicalConnections(Router router, TransactionTracker tx, ConnectionSettings settings, ConnectionSession session) {
        this(router, tx, settings, session, null);
    }

    PhysicalConnections(Router router, TransactionTracker tx, ConnectionSettings settings, ConnectionSession session,
                        Served served) {
        this.router = router;
        this.tx = tx;
        this.settings = settings;
        this.served = served;
        this.replica = new ReplicaConnection(router, tx, settings, session, served);
    }

    /** Back to a new connection's state once {@link #releaseAll} gave every physical connection back. */
    void clear() {
        primary = null;
        primaryMoved = false;
        replica.clear();
    }

    /** Whether no physical connection is held (the primary's, the replica's): all went back to their pools. */
    boolean noneHeld() {
        return primary == null && replica.connection() == null;
    }

    // ------------------------------------------------------------------ what is open

    /** The open primary connection, or null. */
    Connection openPrimary() {
        return primary;
    }

    /** The replica connection: which replica it is on, opened when a read needs one. */
    ReplicaConnection replica() {
        return replica;
    }

    /**
     * The physical connection {@code route} runs on: the primary connection (opened if needed), or the open replica
     * connection to its replica, which routing opened when it chose that replica.
     */
    Connection connection(StatementRoute route) throws SQLException {
        if (route.node() == null) {
            return primary();
        }
        if (route.node() != replica.node()) {
            throw new IllegalStateException("hibernate-rwsplit: " + route + " is not on the open replica connection ("
                    + replica + ")");
        }
        return replica.connection();
    }

    // ------------------------------------------------------------------ the primary

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
            if (served != null && served.ownerClosed()) {
                // aborted while it borrowed (see ReplicaConnection#abortedWhileBorrowing): the abort or this, not both
                Connection mine = (Connection) PRIMARY.getAndSet(this, null);
                if (mine != null) {
                    router.discardPrimary(mine);
                }
                throw RoutingConnection.closed();
            }
        }
        return c;
    }

    /** The primary connection broke (or the primary went away): it goes back to its pool, which discards it. */
    void dropPrimary() {
        if (primaryMoved) {
            discardPrimary();
            return;
        }
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

    /**
     * Before a statement on the primary connection: unless its driver moved it to a read-only server without an error
     * ({@link Router#primaryConnectionMoved}), nothing. If it did, a read there may answer older than a committed write
     * (and a write would be refused), so the statement fails with a connection error, before it runs. Outside a
     * transaction the connection is given back for good ({@link #discardPrimary}) and a read waits for the primary as
     * one whose primary connection broke does (a write is never sent again). A transaction keeps its connection, so
     * that the rest of it never runs on another one: every later statement on it fails the same way, and the
     * connection is given back for good when the logical connection releases it.
     */
    void checkPrimaryNotMoved() throws SQLException {
        Connection c = primary;
        if (c == null || (!primaryMoved && !router.primaryConnectionMoved(c))) {
            return;
        }
        if (tx.inTransaction()) {
            primaryMoved = true;   // discarded when the logical connection gives it back
        }
        else {
            discardPrimary();
        }
        throw new java.sql.SQLTransientConnectionException("hibernate-rwsplit [" + router.label() + "]: the primary"
                + " connection was moved by its driver to a read-only server (the primary is gone, or was): a statement"
                + " the primary must serve does not run there", "08003");
    }

    /**
     * The primary connection leads to a read-only server (a replica a multi-host URL led to): it goes back to its pool
     * for good ({@link Router#discardPrimary}).
     */
    void discardPrimary() {
        Connection moved = primary;
        primary = null;
        primaryMoved = false;
        if (moved != null) {
            router.discardPrimary(moved);
        }
    }

    /** The isolation set on the logical connection (or read from its first connection), or -1. */
    int isolation() {
        return settings.isolation();
    }

    // ------------------------------------------------------------------ both

    /** Applies a setting change to every open connection. */
    void forEachOpen(Action action) throws SQLException {
        if (primary != null) {
            action.apply(primary);
        }
        if (replica.connection() != null) {
            action.apply(replica.connection());
        }
    }

    /**
     * Applies a transaction boundary ({@code commit}, {@code rollback}, autocommit on or off) to the primary, then to
     * the replica connection, both attempted whatever the first did; returns the primary's failure, or null. The
     * replica connection held only reads: one that fails at the boundary is discarded ({@link #endOnReplica}), as
     * one server's caller would never hear of it.
     */
    SQLException endOnBoth(Action action, String boundary) {
        SQLException failure = apply(primary, action, null);
        endOnReplica(action, boundary);
        return failure;
    }

    /**
     * Applies a transaction boundary to the replica connection, if open. A failure there (the replica died, its
     * connection broke) is logged at WARN and the connection discarded: it held only reads, nothing of the caller's
     * is lost, and the next read opens another.
     */
    void endOnReplica(Action action, String boundary) {
        Connection c = replica.connection();
        if (c == null) {
            return;
        }
        try {
            action.apply(c);
        }
        catch (SQLException e) {
            Router.log.warn("[{}] the connection to replica {} failed at {} (it held only reads; discarded, the"
                    + " transaction's outcome is the primary's): {}", router.label(), replica, boundary,
                    io.rwsplit.internal.config.Secrets.describe(e));
            replica.drop(replica.node());
        }
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
     * Gives every connection back to its pool; returns the primary's failure, or null. The primary connection goes
     * back even when giving back the replica's throws, and the other way round; the replica's failure is logged, not
     * returned (it held only reads).
     */
    SQLException releaseAll() {
        SQLException failure = null;
        Connection p = primary;
        primary = null;
        if (p != null && primaryMoved) {
            primaryMoved = false;
            router.discardPrimary(p);   // found on a replica in a transaction: never lent again
            p = null;
        }
        try {
            io.rwsplit.internal.replica.ReplicaNode from = replica.node();
            try {
                replica.release();
            }
            catch (SQLException e) {
                // it held only reads: closing the logical connection succeeded as far as the caller is concerned
                Router.log.warn("[{}] giving back the connection to replica {} failed (discarded): {}", router.label(),
                        from, io.rwsplit.internal.config.Secrets.describe(e));
            }
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
     * Aborts both physical connections, the replica's even when the primary's abort throws, and gives them back to
     * their pools for good (evicted: an aborted connection must not be lent again, and a pool frees its place only
     * when it gets the connection back).
     */
    void abort(Executor executor) throws SQLException {
        Connection p = (Connection) PRIMARY.getAndSet(this, null);
        ReplicaConnection.Taken r = replica.takeForDiscard();
        try {
            if (p != null) {
                try {
                    p.abort(executor);
                }
                finally {
                    router.discardPrimary(p);
                }
            }
        }
        finally {
            if (r != null) {
                try {
                    r.connection().abort(executor);
                }
                finally {
                    router.discardReplica(r.node(), r.connection());
                }
            }
        }
    }

    boolean isValid(int timeout) throws SQLException {
        Connection r = replica.connection();
        return (primary == null || primary.isValid(timeout)) && (r == null || r.isValid(timeout));
    }

    /**
     * The warnings of both physical connections, the primary's first. When both have some, a new chain of copies:
     * the drivers' own chains are never linked to each other (a driver answers the same head until its warnings are
     * cleared, so a second call would link a chain into itself). A copy keeps its kind: a {@link DataTruncation} is
     * copied as one, and a driver's own kind of warning is the cause of its copy (for what only the driver's type
     * tells, as PostgreSQL's server message).
     */
    SQLWarning warnings() throws SQLException {
        SQLWarning warnings = primary == null ? null : primary.getWarnings();
        if (replica.connection() == null) {
            return warnings;
        }
        SQLWarning replicaWarnings = replica.connection().getWarnings();
        if (warnings == null || replicaWarnings == null) {
            return warnings == null ? replicaWarnings : warnings;
        }
        SQLWarning head = null;
        SQLWarning tail = null;
        for (SQLWarning chain : new SQLWarning[] {warnings, replicaWarnings}) {
            for (SQLWarning w = chain; w != null; w = w.getNextWarning()) {
                SQLWarning copy = copy(w);
                if (head == null) {
                    head = copy;
                }
                else {
                    tail.setNextWarning(copy);
                }
                tail = copy;
            }
        }
        return head;
    }

    /** A warning like {@code w}, not linked to its chain. */
    private static SQLWarning copy(SQLWarning w) {
        if (w instanceof DataTruncation t) {
            DataTruncation copy = new DataTruncation(t.getIndex(), t.getParameter(), t.getRead(), t.getDataSize(),
                    t.getTransferSize(), t.getCause());
            copy.setStackTrace(t.getStackTrace());
            return copy;
        }
        SQLWarning copy = new SQLWarning(w.getMessage(), w.getSQLState(), w.getErrorCode(),
                w.getClass() == SQLWarning.class ? w.getCause() : w);
        copy.setStackTrace(w.getStackTrace());
        return copy;
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
        return "primary=" + (primary != null) + ", replica=" + replica;
    }
}
