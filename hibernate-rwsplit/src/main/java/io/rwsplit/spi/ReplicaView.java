package io.rwsplit.spi;

/** What a load balancer may know about a candidate replica. */
public interface ReplicaView {

    /** Configured name. */
    String name();

    /** Configured weight, at least 1. */
    int weight();

    /** Configured tier, at least 1. */
    int tier();

    /** Last measured replication lag in microseconds, or 0 if unknown. */
    long lagMicros();

    /**
     * Statements in progress on this replica right now; counted only when the load balancer reads them
     * ({@link LoadBalancer#readsInFlight()}), else 0.
     */
    int inFlight();
}
