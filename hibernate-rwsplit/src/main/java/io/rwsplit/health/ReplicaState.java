package io.rwsplit.health;

/** Where a replica stands in the monitor's eyes. Only {@link #UP} replicas receive reads. */
public enum ReplicaState {
    /** Reachable and within {@code hibernate.rwsplit.max_lag}: in rotation. */
    UP,
    /**
     * Reachable but out of rotation: lagging more than {@code max_lag}, replication broken, or healthy again
     * but not yet for the whole {@code recovery_period}.
     */
    LAGGING,
    /** Unreachable, failing probes, broken replication or a failed read: out of rotation. */
    DOWN,
    /**
     * The server answers as the primary (promoted in a failover): it receives no replica reads. Should it
     * become a replica again, it comes back through LAGGING and the recovery period.
     */
    PRIMARY
}
