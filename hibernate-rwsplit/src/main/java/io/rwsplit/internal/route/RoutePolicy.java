package io.rwsplit.internal.route;

import io.rwsplit.Intent;
import io.rwsplit.RouteReason;

/**
 * Where a statement goes: the ordered routing rules of the README's routing table, as a pure function of
 * what the statement is and the state it runs in. No JDBC, no I/O, no allocation: every {@link Route} is a
 * shared constant. The first rule that applies decides:
 * <ol>
 *   <li>statements that must run on the primary (writes, locks, DDL, CALL, SET, sequences...); a session
 *       setting the replicas replay has a reason of its own</li>
 *   <li>anything on a connection whose primary holds session state an earlier statement created</li>
 *   <li>anything while the session flushes</li>
 *   <li>a transaction not declared read-only: primary from its first statement</li>
 *   <li>an explicit primary intent (API or SQL comment)</li>
 *   <li>a read-only transaction: one replica for the whole transaction</li>
 *   <li>an explicit replica intent, then any other autocommit read: a replica</li>
 * </ol>
 * Rules 5 and 6 are <em>gated</em>: the session's consistency level may still send the read to the primary
 * or to a replica that has caught up (the caller applies it).
 */
final class RoutePolicy {

    /**
     * A decision of the policy.
     *
     * @param reason       why: a primary reason, or the replica reason of a read the consistency gate decides
     * @param refused      a write in a read-only transaction or connection: refused, never sent anywhere
     * @param promotes     a write in a read-only-by-preference transaction: the rest of it goes to the primary
     * @param recordsWrite a statement that may write: recorded for read-your-writes once committed
     * @param gated        a read that the consistency level decides (rules 5 and 6)
     */
    record Route(RouteReason reason, boolean refused, boolean promotes, boolean recordsWrite, boolean gated) {
    }

    private static final Route[] ROUTES = new Route[RouteReason.values().length * 16];

    static {
        for (RouteReason reason : RouteReason.values()) {
            for (int flags = 0; flags < 16; flags++) {
                ROUTES[reason.ordinal() * 16 + flags] = new Route(reason, (flags & 1) != 0, (flags & 2) != 0,
                        (flags & 4) != 0, (flags & 8) != 0);
            }
        }
    }

    private RoutePolicy() {
    }

    private static Route route(RouteReason reason, boolean refused, boolean promotes, boolean recordsWrite, boolean gated) {
        int flags = (refused ? 1 : 0) | (promotes ? 2 : 0) | (recordsWrite ? 4 : 0) | (gated ? 8 : 0);
        return ROUTES[reason.ordinal() * 16 + flags];
    }

    /**
     * @param kind               what the statement is
     * @param hint               its {@code rwsplit:} comment
     * @param tx                 the current transaction's kind (never {@code PENDING}: its first statement fixed it)
     * @param readOnlyConnection {@code Connection#setReadOnly(true)} or a read-only session
     * @param intent             the session's innermost intent ({@code onPrimary}/{@code onReplica}/ambient)
     * @param flushing           whether the session is flushing
     * @param pinned             whether an earlier statement of the connection left session state on the primary
     * @param sessionCommand     whether the statement changes a session setting that replicas replay
     */
    static Route decide(SqlKind kind, SqlHint hint, TransactionTracker.Kind tx, boolean readOnlyConnection,
                        Intent intent, boolean flushing, boolean pinned, boolean sessionCommand) {
        if (kind.primaryOnly()) {
            RouteReason reason = kind == SqlKind.WRITE ? RouteReason.WRITE
                    : kind == SqlKind.LOCKING_READ ? RouteReason.LOCKING_READ
                    : sessionCommand ? RouteReason.SESSION_COMMAND
                    : RouteReason.PRIMARY_ONLY_STATEMENT;
            boolean writeLike = kind.writeLike();
            boolean refused = writeLike && (tx == TransactionTracker.Kind.READ_ONLY_STRICT
                    || (tx == TransactionTracker.Kind.NONE && readOnlyConnection));
            boolean promotes = writeLike && !refused && tx == TransactionTracker.Kind.READ_ONLY_PREFERRED;
            boolean recordsWrite = !refused && (kind == SqlKind.WRITE || kind == SqlKind.DDL || kind == SqlKind.CALL
                    || kind == SqlKind.OTHER);
            return route(reason, refused, promotes, recordsWrite, false);
        }
        if (pinned) {
            return route(RouteReason.SESSION_STATE, false, false, false, false);
        }
        if (flushing) {
            return route(RouteReason.FLUSH, false, false, false, false);
        }
        if (tx == TransactionTracker.Kind.READ_WRITE) {
            return route(RouteReason.WRITE_TRANSACTION, false, false, false, false);
        }
        if (hint == SqlHint.PRIMARY || intent == Intent.PRIMARY) {
            return route(RouteReason.PRIMARY_HINT, false, false, false, false);
        }
        if (tx != TransactionTracker.Kind.NONE) {
            return route(RouteReason.READ_ONLY_TRANSACTION, false, false, false, true);
        }
        if (hint == SqlHint.REPLICA || intent == Intent.REPLICA) {
            return route(RouteReason.REPLICA_HINT, false, false, false, true);
        }
        return route(RouteReason.REPLICA_READ, false, false, false, true);
    }
}
