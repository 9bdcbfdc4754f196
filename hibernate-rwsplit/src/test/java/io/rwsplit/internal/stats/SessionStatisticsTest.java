package io.rwsplit.internal.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;

class SessionStatisticsTest {

    private final SessionStatistics stats = new SessionStatistics(List.of("r1", "r2"));
    private final RouteDecision write = RouteDecision.primary(RouteReason.WRITE);
    private final RouteDecision read = RouteDecision.replica("r2", RouteReason.REPLICA_READ);

    @Test
    void countsNothingBeforeTheFirstStatement() {
        assertEquals(Map.of(), stats.byReason());
        assertEquals(Map.of(), stats.byReplica());
        assertEquals(0, stats.count(RouteReason.WRITE));
        assertNull(stats.lastDecision());
    }

    @Test
    void countsASingleStatement() {
        stats.record(read, 1);
        assertEquals(Map.of("REPLICA_READ", 1L), stats.byReason());
        assertEquals(Map.of("r2", 1L), stats.byReplica());
        assertEquals(1, stats.count(RouteReason.REPLICA_READ));
        assertEquals(0, stats.count(RouteReason.WRITE));
        assertEquals(1, stats.replicaStatements());
        assertSame(read, stats.lastDecision());
    }

    @Test
    void countsManyStatementsByReasonAndReplica() {
        stats.record(write, -1);
        stats.record(read, 1);
        stats.record(read, 1);
        stats.record(RouteDecision.replica("r1", RouteReason.REPLICA_HINT), 0);
        assertEquals(Map.of("WRITE", 1L, "REPLICA_HINT", 1L, "REPLICA_READ", 2L), stats.byReason());
        assertEquals(List.of("WRITE", "REPLICA_HINT", "REPLICA_READ"), List.copyOf(stats.byReason().keySet()),
                "declaration order");
        assertEquals(Map.of("r1", 1L, "r2", 2L), stats.byReplica());
        assertEquals(2, stats.count(RouteReason.REPLICA_READ));
        assertEquals(1, stats.primaryStatements());
        assertEquals(3, stats.replicaStatements());
    }
}
