package io.rwsplit.health;

/** Where a replica stands in the monitor's eyes. Only {@link #UP} replicas receive reads. */
public enum ReplicaState {
    /** Reachable and within {@code hibernate.rwsplit.max_lag}: in rotation. */
    UP,
    /** Reachable but lagging more than {@code max_lag} (or not yet healthy for the recovery period): out of rotation. */
    LAGGING,
    /** Unreachable, failing probes, broken replication or a failed read: out of rotation. */
    DOWN
}
