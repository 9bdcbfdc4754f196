package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;

import io.rwsplit.RouteReason;
import io.rwsplit.internal.replica.ReplicaNode;

/**
 * Where the current transaction's work that carries no SQL of its own runs, for one logical connection: metadata and
 * options ({@link #current}), savepoints ({@link #savepointConnection}), a driver connection the application unwraps
 * ({@link #unwrap}), arrays and structs ({@link #clientSideObjects}). Each goes where the transaction's statements run
 * or will run: the replica connection of a strict read-only transaction that reads there, else the primary's. A part
 * of {@link ConnectionRouting}, which builds it.
 * <p>
 * Used by one thread at a time, like the logical connection.
 */
final class TransactionPlace {

    private final Served served;
    private final TransactionTracker tx;
    private final PhysicalConnections physical;
    private final ReplicaConnection replica;
    private final ConsistencyGate gate;
    private final ConnectionSession connectionSession;

    TransactionPlace(Served served, TransactionTracker tx, PhysicalConnections physical, ConsistencyGate gate,
                     ConnectionSession connectionSession) {
        this.served = served;
        this.tx = tx;
        this.physical = physical;
        this.replica = physical.replica();
        this.gate = gate;
        this.connectionSession = connectionSession;
    }

    /**
     * The replica connection's replica when work that carries no SQL (metadata, options) runs there: in a
     * read-only transaction that reads on a replica; null for the primary.
     */
    ReplicaNode currentReplica() throws SQLException {
        served.owner.checkOpen();
        tx.follow();
        TransactionTracker.Kind txKind = tx.kind();
        boolean readOnly = txKind == TransactionTracker.Kind.READ_ONLY_STRICT
                || txKind == TransactionTracker.Kind.READ_ONLY_PREFERRED;
        return readOnly && !connectionSession.pinned() ? replica.node() : null;
    }

    /**
     * The connection a savepoint of the current transaction is set on, rolled back to or released on: where the
     * transaction's statements run ({@link #savepointOnReplica}).
     */
    Connection savepointConnection() throws SQLException {
        served.owner.checkOpen();
        tx.follow();
        return savepointOnReplica() ? replica.connection() : physical.primary();
    }

    /**
     * Whether a savepoint of the current transaction goes to the replica connection: in a read-only transaction that
     * reads there, or whose savepoints already are there. One that has not read yet is routed as its first read would
     * be ({@link #readsOnReplica}) and its savepoint goes where its reads will; a read-only-by-preference one moves to
     * the primary as a write would, since what a rollback to the savepoint undoes are the writes it may run there.
     */
    boolean savepointOnReplica() throws SQLException {
        TransactionTracker.Kind txKind = tx.kind();
        if (txKind == TransactionTracker.Kind.READ_ONLY_PREFERRED) {
            tx.writeInPreferredReadOnly();
            return false;
        }
        if (txKind != TransactionTracker.Kind.READ_ONLY_STRICT) {
            return false;
        }
        if (tx.savepointsOnReplica()) {
            return replica.connection() != null;   // where the others are, whatever pinned the connection since
        }
        boolean onReplica = readsOnReplica();
        if (onReplica) {
            tx.savepointOnReplica();
        }
        return onReplica;
    }

    /**
     * Whether the current strict read-only transaction reads on the open replica connection. One that has not read yet
     * is routed as its first read would be: the consistency gate decides, and the replica connection opens (one that
     * finds none stays on the primary).
     */
    private boolean readsOnReplica() throws SQLException {
        if (tx.needsConsistencyCheck()) {
            replica.statementStarting();
            RouteReason reason = gate.read(RouteReason.READ_ONLY_TRANSACTION, true, null);
            tx.consistencyChecked(reason.target() == io.rwsplit.Target.PRIMARY ? reason : null);
            if (reason.target() == io.rwsplit.Target.PRIMARY || replica.serve(true) == null) {
                return false;
            }
        }
        return tx.primaryReason() == null && !tx.replicaUnavailable() && !connectionSession.pinned()
                && replica.connection() != null;
    }

    /**
     * The connection that makes arrays and structs (Hibernate binds a PostgreSQL array parameter of a batch fetch
     * with one): the drivers make them on the client (pgjdbc may look a type's name up), valid on any connection, so
     * the one the current read runs on serves: the replica's when it is open, outside a read-write transaction; else
     * the primary's. A replica read opens no primary connection for them.
     */
    Connection clientSideObjects() throws SQLException {
        served.owner.checkOpen();
        Connection open = tx.kind() == TransactionTracker.Kind.READ_WRITE ? null : replica.connection();
        if (open == null) {
            open = physical.openPrimary();
        }
        return open != null ? open : current();
    }

    /**
     * The driver's own connection of type {@code iface} an application unwraps (pgjdbc's {@code CopyManager}, a
     * driver's API): what runs there is past routing, so it is taken for work that may write and leave session state.
     * In a strict read-only transaction that reads on a replica, that replica's connection (nothing is written there);
     * else the primary's, and, once it is handed out: a read-only-by-preference transaction moves there, the rest of
     * the logical connection stays there (pinned), and a write stays pending until the logical connection closes
     * ({@link TransactionTracker#writesUntracked}), since what runs through it is not seen.
     */
    <T> T unwrap(Class<T> iface) throws SQLException {
        served.owner.checkOpen();
        tx.follow();
        if (tx.kind() == TransactionTracker.Kind.READ_ONLY_STRICT && readsOnReplica()) {
            return replica.connection().unwrap(iface);
        }
        T unwrapped = physical.primary().unwrap(iface);
        if (tx.kind() == TransactionTracker.Kind.READ_ONLY_PREFERRED) {
            tx.writeInPreferredReadOnly();
        }
        connectionSession.pin();
        tx.writesUntracked();
        return unwrapped;
    }

    /** The connection of the current transaction for work that carries no SQL ({@link #currentReplica()}). */
    Connection current() throws SQLException {
        return connectionTo(currentReplica());
    }

    /** The replica connection when {@code node} is its replica, else the primary connection (opened if needed). */
    Connection connectionTo(ReplicaNode node) throws SQLException {
        return node != null && node == replica.node() ? replica.connection() : physical.primary();
    }
}
