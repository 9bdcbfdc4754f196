package io.rwsplit.internal.route;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.internal.replica.ReplicaNode;

/**
 * Where one statement goes, as routing decided it: the shared {@link RouteDecision} it is counted and logged as, the
 * replica it runs on (null: the primary), and what its {@link Failover} may do with it. Immutable and shared: every
 * route is a constant built with its replica (or the router, for the primary), sixteen per decision, one for each
 * combination of the flags, so that routing a statement allocates nothing. The connection holder resolves the
 * physical connection ({@link PhysicalConnections#connection}); statistics, logs, the failover and the statement
 * wrappers read this value, nothing reads it back from the connection later.
 */
final class StatementRoute {

    private static final int AUTOCOMMIT_READ = 1;
    private static final int GATED = 2;
    private static final int ANY_REPLICA = 4;
    private static final int WRITES = 8;

    private final RouteDecision decision;
    private final ReplicaNode node;
    private final int flags;
    /** The routes of the same decision, by flags (this one among them). */
    private final StatementRoute[] family;

    private StatementRoute(RouteDecision decision, ReplicaNode node, int flags, StatementRoute[] family) {
        this.decision = decision;
        this.node = node;
        this.flags = flags;
        this.family = family;
    }

    /** The routes of {@code decision} on {@code node} (null: the primary), the one without flags first. */
    static StatementRoute of(RouteDecision decision, ReplicaNode node) {
        StatementRoute[] family = new StatementRoute[16];
        for (int f = 0; f < family.length; f++) {
            family[f] = new StatementRoute(decision, node, f, family);
        }
        return family[0];
    }

    /**
     * This decision with the statement's flags.
     *
     * @param autocommitRead whether it is an autocommit read: it may wait for a failover of the primary
     * @param gated          whether its read passed the consistency gate: during a primary failover a replica that
     *                       meets the session's requirement may serve it
     * @param anyReplica     whether any replica may serve it (no consistency bound): a retry from its replica may go
     *                       to another one, else to the primary
     */
    StatementRoute with(boolean autocommitRead, boolean gated, boolean anyReplica) {
        return family[(autocommitRead ? AUTOCOMMIT_READ : 0) | (gated ? GATED : 0) | (anyReplica ? ANY_REPLICA : 0)];
    }

    /** This route, for a statement that may write: each of its executions counts as a write (read-your-writes). */
    StatementRoute writing() {
        return family[flags | WRITES];
    }

    /** What statistics count and logs show. */
    RouteDecision decision() {
        return decision;
    }

    RouteReason reason() {
        return decision.reason();
    }

    /** The replica it runs on, or null for the primary. */
    ReplicaNode node() {
        return node;
    }

    /** The replica's index, or -1 for the primary (as statistics count it). */
    int replicaIndex() {
        return node == null ? -1 : node.index();
    }

    boolean autocommitRead() {
        return (flags & AUTOCOMMIT_READ) != 0;
    }

    boolean gated() {
        return (flags & GATED) != 0;
    }

    boolean anyReplica() {
        return (flags & ANY_REPLICA) != 0;
    }

    /** Whether the statement may write: every execution is tracked as a write ({@link #writing()}). */
    boolean writes() {
        return (flags & WRITES) != 0;
    }

    @Override
    public String toString() {
        return decision + (autocommitRead() ? " autocommit-read" : "") + (gated() ? " gated" : "")
                + (anyReplica() ? " any-replica" : "") + (writes() ? " writes" : "");
    }
}
