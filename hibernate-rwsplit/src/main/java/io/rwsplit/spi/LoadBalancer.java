package io.rwsplit.spi;

import java.util.List;

/**
 * Picks the replica for a read among its candidates: the healthy replicas of the best tier that can serve it, or, when
 * none of them can (each behind the read's required position or beyond its lag bound), the healthy replicas of every
 * tier that can; for a read a rule by query shape sends to a tier, those of that tier. One instance serves one
 * replica set and is called concurrently: implementations are thread-safe and lock-free.
 */
@FunctionalInterface
public interface LoadBalancer {

    /**
     * @param candidates the replicas that can serve the read (see above), never empty, in configuration order; usually
     *                   the healthy replicas of the best tier, the same list instance until health changes, but a
     *                   list made for this read when some were left out, lower tiers were added, or a rule sent the
     *                   read to a tier (when none of that tier is healthy, the read is chosen for as any other)
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
