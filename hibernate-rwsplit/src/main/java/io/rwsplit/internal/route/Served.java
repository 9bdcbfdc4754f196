package io.rwsplit.internal.route;

/**
 * Whom a logical connection's parts serve now: the facade the session holds and the session; both null while the
 * parts wait for the next session ({@link IdleConnections}). One object that every part reads (the routing, the gate,
 * the tracker, the failover), so that serving the next session writes two fields instead of one per part: the parts
 * outlive many sessions, and with G1 every reference written into a long-lived object costs a memory barrier.
 */
final class Served {

    /** The facade of the session served now (a new one per session), or null while waiting. */
    RoutingConnection owner;
    /** The session served now, or null while waiting. */
    SessionRouting session;

    Served(RoutingConnection owner, SessionRouting session) {
        this.owner = owner;
        this.session = session;
    }

    /**
     * Whether the facade served now is closed: an abort on another thread while this thread waited for a pool's
     * connection (see {@link ReplicaConnection}'s borrow).
     */
    boolean ownerClosed() {
        RoutingConnection o = owner;
        return o != null && o.isClosed();
    }
}
