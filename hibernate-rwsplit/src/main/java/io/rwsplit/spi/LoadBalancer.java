package io.rwsplit.spi;

import java.util.List;

/**
 * Picks the replica for a read among the healthy replicas of the best tier. One instance serves one
 * replica set and is called concurrently: implementations are thread-safe and lock-free.
 */
@FunctionalInterface
public interface LoadBalancer {

    /**
     * @param candidates the healthy replicas of the best tier, never empty, same list instance until health changes
     * @return one of the candidates
     */
    ReplicaView choose(List<? extends ReplicaView> candidates);

    /**
     * Whether this balancer reads {@link ReplicaView#inFlight()}: the statements in progress on each replica are
     * counted only for a balancer that does (two atomic updates per replica statement saved otherwise), and
     * {@code inFlight()} stays 0 for one that does not. Unless it says otherwise, a balancer reads it.
     */
    default boolean readsInFlight() {
        return true;
    }
}
