package io.rwsplit.demo;

import java.util.Map;

/**
 * What one story under one consistency mode produced. Read counts come from the demo's own checks;
 * routing counts from {@code RwSplit.statistics(entityManager)} of every read request, summed, and from
 * {@code RwSplit.statistics(entityManagerFactory)} for all statements of the run, with the read shapes that stayed on
 * the primary most ({@code primaryReadShapes()}).
 */
record RunResult(
        String story,
        ConsistencyMode mode,
        long reads,
        long staleReads,
        long readStatementsOnReplica,
        long readStatementsOnPrimary,
        Map<String, Long> readReasons,
        long allStatementsOnPrimary,
        long allStatementsOnReplica,
        Map<String, Long> allReasons,
        LagProbe.Lag lag,
        long auditedReads,
        long unauditedReads,
        long auditStaleUnit,
        long auditStaleSession,
        java.util.List<io.rwsplit.QueryShapeStatistics> primaryReadShapes) {

    /**
     * The stale-read audit's counts beside the demo's own, against the unit / against the session; "unavailable" where
     * it could check no read (H2), "-" where no read went to a replica.
     */
    String audit() {
        return auditedReads > 0 ? auditStaleUnit + " / " + auditStaleSession : unauditedReads > 0 ? "unavailable" : "-";
    }

    /** Share of the read requests' statements served by replicas, 0..1. */
    double replicaShare() {
        long total = readStatementsOnReplica + readStatementsOnPrimary;
        return total == 0 ? 0 : (double) readStatementsOnReplica / total;
    }
}
