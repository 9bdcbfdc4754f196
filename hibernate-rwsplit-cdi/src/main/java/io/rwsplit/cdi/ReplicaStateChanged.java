package io.rwsplit.cdi;

import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;

/**
 * A CDI event: a replica of a persistence unit changed state (UP, LAGGING, DOWN) since the previous
 * check of {@link ReplicaStateEvents}.
 *
 * @param replica  the replica's name ({@code tenant/replica} for a multi-tenant unit)
 * @param previous the state at the previous check (UP before the first one, as the monitor starts)
 * @param status   the new state with its lag and the reason it left rotation
 */
public record ReplicaStateChanged(String replica, ReplicaState previous, ReplicaStatus status) {

    public ReplicaState state() {
        return status.state();
    }
}
