package io.rwsplit.internal.stats;

import io.rwsplit.RouteDecision;

/** Receives every routing decision. */
public interface StatisticsRecorder {

    /**
     * @param decision     the decision
     * @param replicaIndex the replica's position in configuration order, or -1 for the primary
     */
    void record(RouteDecision decision, int replicaIndex);

    /**
     * Records a decision kept before this recorder was made, its replica found by name (once per session at most);
     * a recorder that does not count per replica records it as the primary's.
     */
    default void recordKept(RouteDecision decision) {
        record(decision, -1);
    }
}
