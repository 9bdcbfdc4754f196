package io.rwsplit.health;

import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of the health of one replica set, as the router sees it right now.
 *
 * @param replicas           one status per replica, in configuration order
 * @param ejections          per replica name: how many times it was taken out of rotation since startup
 * @param lostWriteFailovers how many failovers of the primary since startup lost writes the persistence unit had
 *                           committed (the new primary did not have its last one: asynchronous replication)
 */
public record ReplicaHealth(List<ReplicaStatus> replicas, Map<String, Long> ejections, long lostWriteFailovers) {

    public ReplicaHealth {
        replicas = List.copyOf(replicas);
        ejections = Map.copyOf(ejections);
    }

    /** A snapshot of failovers that lost nothing. */
    public ReplicaHealth(List<ReplicaStatus> replicas, Map<String, Long> ejections) {
        this(replicas, ejections, 0);
    }

    /** The status of the named replica, or {@code null} when there is none of that name. */
    public ReplicaStatus status(String name) {
        for (ReplicaStatus status : replicas) {
            if (status.name().equals(name)) {
                return status;
            }
        }
        return null;
    }

    /** The replicas that are UP. */
    public List<ReplicaStatus> up() {
        return replicas.stream().filter(ReplicaStatus::isUp).toList();
    }
}
