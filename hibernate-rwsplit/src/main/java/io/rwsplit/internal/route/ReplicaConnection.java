package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.BitSet;

import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;

/**
 * The replica connection of one logical connection: which replica it is on, opened when a read first needs one (to
 * the replica the balancer or the consistency gate chooses, each tried at most once per statement, none whose pool
 * could not lend in time), brought up to the logical connection's settings and session commands, and given back to
 * its pool as it came out. {@link PhysicalConnections} holds it beside the primary connection.
 * <p>
 * Used by one thread at a time, like the logical connection.
 */
final class ReplicaConnection {

    private final Router router;
    private final TransactionTracker tx;
    private final ConnectionSettings settings;
    private final ConnectionSession session;

    private Connection connection;
    private ReplicaNode node;
    /** Whether {@link #connection} was made read-only here ({@link Router#makeReadOnly}): given back writable. */
    private boolean madeReadOnly;

    /** The replicas whose pools could not lend a connection in time to the statement being routed; null until one. */
    private BitSet busyPools;
    /** The last such pool timeout, or null: the statement then found no replica pool busy. */
    private SQLException poolTimeout;
    /** The tier a rule by query shape names for the statement being routed, or 0. */
    private int tier;
    /**
     * Whether the last statement routed looked for a replica and found none ({@link #foundNone}): {@link #serve} then
     * answers null without looking again until the next statement is routed ({@link #statementStarting}) or a look
     * is asked for ({@link #lookAgain}), since a replica that came back since would serve the read without what the
     * consistency gate asked of the one it looked for (a write applied, a staleness bound).
     */
    private boolean noneFound;

    /**
     * The connection is taken out by whoever comes first when a borrow and an abort meet ({@link #takeForDiscard},
     * {@link #abortedWhileBorrowing}); the owning thread reads and writes it plainly otherwise.
     */
    private static final java.lang.invoke.VarHandle CONNECTION;

    static {
        try {
            CONNECTION = java.lang.invoke.MethodHandles.lookup().findVarHandle(ReplicaConnection.class, "connection",
                    Connection.class);
        }
        catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Whom the parts serve: a borrow that ends after an abort finds the facade closed; null in some unit tests. */
    private final Served served;

    ReplicaConnection(Router router, TransactionTracker tx, ConnectionSettings settings, ConnectionSession session) {
        this(router, tx, settings, session, null);
    }

    ReplicaConnection(Router router, TransactionTracker tx, ConnectionSettings settings, ConnectionSession session,
                      Served served) {
        this.router = router;
        this.tx = tx;
        this.settings = settings;
        this.session = session;
        this.served = served;
    }

    /** Back to a new connection's state once every physical connection went back: no replica chosen, no busy pool. */
    void clear() {
        connection = null;
        node = null;
        madeReadOnly = false;
        if (busyPools != null) {
            busyPools.clear();
        }
        poolTimeout = null;
        tier = 0;
        noneFound = false;
    }

    /**
     * The statement being routed reads from the replicas of {@code tier} (a rule by query shape's, 0 none) when it opens
     * the replica connection; one already open serves it where it is.
     */
    void tier(int tier) {
        this.tier = tier;
    }

    /** The tier named for the statement being routed, or 0. */
    int tier() {
        return tier;
    }

    /** The open replica connection, or null. */
    Connection connection() {
        return connection;
    }

    /** The replica behind the open replica connection, or null. */
    ReplicaNode node() {
        return node;
    }

    /**
     * A statement is being routed: it may look for a replica again, and the pools that were busy for the previous one
     * may lend again, except in a transaction that gave up on replicas because of them (it stays on the primary, for
     * that reason).
     */
    void statementStarting() {
        tier = 0;
        noneFound = false;
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

    /**
     * The open replica connection, or one to a replica the balancer chooses (trying each replica at most
     * once, and none whose pool was busy for this statement); null when no replica can serve, also when the statement
     * looked before and found none. A transaction that found none stays on the primary.
     */
    Connection serve(boolean inTransaction) throws SQLException {
        if (session.pinned()) {
            return null;
        }
        if (connection != null) {
            return session.replayOn(node, connection, !tx.autoCommit()) ? connection : null;
        }
        if (noneFound || inTransaction && tx.replicaUnavailable()) {
            return null;
        }
        ReplicaSet set = router.replicas();
        for (int attempt = 0; attempt < set.nodes().size(); attempt++) {
            ReplicaNode chosen = tier != 0 ? set.choose(this::mayLend, tier)
                    : poolTimeout == null ? set.choose() : set.choose(this::mayLend);
            if (chosen == null) {
                break;
            }
            Connection c = open(chosen);
            if (c != null) {
                return c;
            }
        }
        return foundNone(inTransaction);
    }

    /**
     * No replica can serve the statement being routed (none is healthy, none could be opened, every pool was busy, or
     * the connection is pinned): it looks for none again ({@link #serve} answers null), and a transaction stays on the
     * primary. Returns null.
     */
    Connection foundNone(boolean inTransaction) {
        noneFound = true;
        if (inTransaction) {
            // the whole read-only transaction then stays on the primary, for one consistent snapshot
            tx.replicaUnavailableInTransaction();
        }
        return null;
    }

    /** The statement being routed may look for a replica again: a read that waits for a failover looks at each try. */
    void lookAgain() {
        noneFound = false;
    }

    /**
     * Opens a connection to {@code chosen} as the replica connection; null on failure (the node marked down), and
     * when its pool could not lend one in time ({@link #poolTimeout()}; it is not asked again for this statement).
     */
    Connection open(ReplicaNode chosen) throws SQLException {
        if (session.pinned() || !mayLend(chosen)) {
            return null;
        }
        Connection c;
        try {
            c = router.borrow(chosen);
        }
        catch (SQLException timeout) {
            Router.log.debug("[{}] replica '{}' lent no connection in time, it stays in rotation: {}", router.label(),
                    chosen.name(), timeout.getMessage());
            if (busyPools == null) {
                busyPools = new BitSet(router.replicas().nodes().size());
            }
            busyPools.set(chosen.index());
            poolTimeout = timeout;
            return null;
        }
        if (c == null) {
            return null;
        }
        boolean madeReadOnly = false;
        try {
            madeReadOnly = Router.makeReadOnly(chosen, c);
            boolean autoCommit = tx.autoCommit();
            // a pool that lends only autocommit connections spares a read outside a transaction the driver's call
            if (!(autoCommit && chosen.pool() != null && chosen.pool().lendsAutoCommit())
                    && c.getAutoCommit() != autoCommit) {
                c.setAutoCommit(autoCommit);
            }
            settings.applyTo(c);
        }
        catch (SQLException | RuntimeException e) {
            router.replicas().markDown(chosen, e);
            router.giveBack(chosen, c, madeReadOnly);
            return null;
        }
        node = chosen;
        this.madeReadOnly = madeReadOnly;
        CONNECTION.setRelease(this, c);   // after its replica: an abort that takes the connection reads the replica too
        abortedWhileBorrowing(chosen);
        session.replicaOpened();
        return session.replayOn(chosen, c, !tx.autoCommit()) ? c : null;
    }

    /** Whether {@code candidate}'s pool has not yet failed to lend a connection in time to the statement being routed. */
    private boolean mayLend(ReplicaNode candidate) {
        return poolTimeout == null || !busyPools.get(candidate.index());
    }

    /** The replica connection to {@code failed} broke under a read: it goes back to its pool (which discards it). */
    void drop(ReplicaNode failed) {
        if (node != failed) {
            return;
        }
        try {
            release();
        }
        catch (SQLException ignored) {
            // it is broken: the pool discards it
        }
    }

    /** A replica connection taken out to be discarded, and its replica. */
    record Taken(Connection connection, ReplicaNode node) {
    }

    /**
     * The open replica connection and its replica, or null, taken out without giving it back: the caller discards it.
     * Its replica is read after the connection is taken: a borrow that just ended set it before the connection.
     */
    Taken takeForDiscard() {
        Connection c = (Connection) CONNECTION.getAndSet(this, null);
        ReplicaNode from = node;
        node = null;
        return c == null ? null : new Taken(c, from);
    }

    /**
     * The logical connection was aborted while this borrow waited for its pool (an abort on another thread takes only
     * what is open when it runs): the connection just borrowed is discarded, by this thread or by the abort, whichever
     * takes it first, and the read fails as on a closed connection. Otherwise it would stay on parts that never serve
     * again, a place of the replica's pool lost for good, and the read would run on an aborted connection. One read of
     * the facade's field after the borrow; an abort in the instant between the two (no fence here: this runs at every
     * borrow) is not seen.
     */
    private void abortedWhileBorrowing(ReplicaNode chosen) throws SQLException {
        if (served == null || !served.ownerClosed()) {
            return;
        }
        Connection mine = (Connection) CONNECTION.getAndSet(this, null);
        node = null;
        if (mine != null) {
            router.discardReplica(chosen, mine, madeReadOnly);
        }
        madeReadOnly = false;
        throw RoutingConnection.closed();
    }

    /**
     * Gives the replica connection, if open, back to its pool as it came out: reset first if it replayed session
     * commands (a reset that fails closes it for good). It goes back even when the reset throws.
     */
    void release() throws SQLException {
        Connection c = connection;
        ReplicaNode from = node;
        boolean madeReadOnly = this.madeReadOnly;
        connection = null;
        node = null;
        this.madeReadOnly = false;
        if (c == null) {
            return;
        }
        boolean reusable = true;
        try {
            reusable = session.resetForReuse(from, c);
        }
        finally {
            if (reusable) {
                router.giveBack(from, c, madeReadOnly);
            }
            else {
                from.returned(c);     // closed for good by its pool
            }
        }
    }

    @Override
    public String toString() {
        return String.valueOf(node);
    }
}
