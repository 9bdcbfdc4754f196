package io.rwsplit.internal.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;

/**
 * A statement is counted once by reason, by its query shape; the factory's totals by reason and on the primary are
 * summed from those counts, shapes beyond the tracked ones included, and only its count by replica is its own.
 */
class FactoryStatisticsTest {

    /** What the router does for each statement it serves: the factory's record and its shape's. */
    private static void served(FactoryStatistics statistics, QueryShapes.Shape shape, RouteDecision decision, int replica) {
        statistics.record(decision, replica);
        shape.routed(decision.reason());
    }

    @Test
    void totalsByReasonAndOnThePrimaryAreTheSumsOfEveryShapesIncludingThoseBeyondTheTable() {
        QueryShapes shapes = new QueryShapes(1);   // tracks 4 shapes, the rest fold into "other"
        FactoryStatistics statistics = new FactoryStatistics(List.of("r1", "r2"), ConsistencyCounts.NONE, shapes,
                AuditCounts.NONE);
        for (int i = 0; i < 6; i++) {
            QueryShapes.Shape read = shapes.shape("s" + i, "select " + i, null, true);
            served(statistics, read, RouteDecision.replica("r1", RouteReason.REPLICA_READ), 0);
            served(statistics, read, RouteDecision.replica("r2", RouteReason.REPLICA_READ), 1);
            served(statistics, read, RouteDecision.primary(RouteReason.STRONG_CONSISTENCY), -1);
        }
        QueryShapes.Shape write = shapes.shape("w", "update t", null, false);
        served(statistics, write, RouteDecision.primary(RouteReason.WRITE), -1);

        assertEquals(12, statistics.count(RouteReason.REPLICA_READ));
        assertEquals(6, statistics.count(RouteReason.STRONG_CONSISTENCY));
        assertEquals(1, statistics.count(RouteReason.WRITE));
        assertEquals(7, statistics.primaryStatements());
        assertEquals(12, statistics.replicaStatements());
        assertEquals(Map.of("r1", 6L, "r2", 6L), statistics.byReplica());
        assertEquals(Map.of("REPLICA_READ", 12L, "STRONG_CONSISTENCY", 6L, "WRITE", 1L), statistics.byReason());
        assertEquals(18, statistics.reads());
        assertEquals(12, statistics.replicaReads());
    }
}
