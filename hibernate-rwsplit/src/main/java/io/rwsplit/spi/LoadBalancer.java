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
}
