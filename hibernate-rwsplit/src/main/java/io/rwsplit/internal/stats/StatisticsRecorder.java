package io.rwsplit.internal.stats;

import io.rwsplit.RouteDecision;

/** Receives every routing decision. */
public interface StatisticsRecorder {

    /**
     * @param decision     the decision
     * @param replicaIndex the replica's position in configuration order, or -1 for the primary
     */
    void record(RouteDecision decision, int replicaIndex);
}
