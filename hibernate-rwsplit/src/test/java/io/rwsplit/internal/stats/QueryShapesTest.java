package io.rwsplit.internal.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteReason;

class QueryShapesTest {

    @Test
    void countsEachShapeByReasonWithItsReplicaShareAndTimes() {
        QueryShapes shapes = new QueryShapes(5);
        QueryShapes.Shape read = shapes.shape("a1", "select a", null, true);
        assertSame(read, shapes.shape("a1", "select a", null, true), "one shape per text");
        read.routed(RouteReason.REPLICA_READ);
        read.routed(RouteReason.REPLICA_READ);
        read.routed(RouteReason.WRITE_TRANSACTION);
        read.executed(true, 2_000_000);
        read.executed(true, 4_000_000);
        read.executed(false, 1_000_000);
        QueryShapeStatistics s = shapes.report().get(0);
        assertEquals(3, s.statements());
        assertEquals(2, s.replicaStatements());
        assertEquals(Map.of(RouteReason.REPLICA_READ, 2L, RouteReason.WRITE_TRANSACTION, 1L), s.byReason());
        assertEquals(Duration.ofMillis(3), s.replicaMeanTime());
        assertEquals(Duration.ofMillis(4), s.replicaMaxTime());
        assertEquals(Duration.ofMillis(1), s.primaryMeanTime());
        assertEquals(3, shapes.reads());
        assertEquals(2, shapes.replicaReads());
    }

    @Test
    void theTableIsBoundedAndTheRestCountsAsOther() {
        QueryShapes shapes = new QueryShapes(1);   // reports 1, tracks 4
        for (int i = 0; i < 6; i++) {
            QueryShapes.Shape s = shapes.shape("id" + i, "select " + i, null, true);
            for (int n = 0; n <= i; n++) {
                s.routed(RouteReason.REPLICA_READ);
            }
        }
        List<QueryShapeStatistics> report = shapes.report();
        assertEquals(2, report.size(), report.toString());
        assertEquals("id3", report.get(0).id(), "the most counted of the tracked ones");
        assertEquals(QueryShapeStatistics.OTHER, report.get(1).id());
        assertEquals(1 + 2 + 3 + 5 + 6, report.get(1).statements(), "three tracked ones beyond the top, two untracked");
        assertEquals(21, shapes.reads(), "every read counts in the totals");
    }

    @Test
    void readsThatStayOnThePrimaryAreListedMostFirstWithTheirReasons() {
        QueryShapes shapes = new QueryShapes(5);
        QueryShapes.Shape locking = shapes.shape("l", "select ... for update", null, true);
        QueryShapes.Shape plain = shapes.shape("p", "select b", null, true);
        QueryShapes.Shape write = shapes.shape("w", "update t", null, false);
        locking.routed(RouteReason.LOCKING_READ);
        locking.routed(RouteReason.LOCKING_READ);
        plain.routed(RouteReason.REPLICA_READ);
        plain.routed(RouteReason.STRONG_CONSISTENCY);
        write.routed(RouteReason.WRITE);
        List<QueryShapeStatistics> onPrimary = shapes.primaryReads();
        assertEquals(List.of("l", "p"), onPrimary.stream().map(QueryShapeStatistics::id).toList());
        assertEquals(Map.of(RouteReason.LOCKING_READ, 2L), onPrimary.get(0).byReason());
        assertEquals(4, shapes.reads());
        assertEquals(1, shapes.replicaReads());
    }

    @Test
    void eachShapesFirstExecutionsAreTimedThenOneInTheSampleAtRandom() {
        QueryShapes shapes = new QueryShapes(5, 16);
        QueryShapes.Shape shape = shapes.shape("a1", "select a", null, true);
        shape.routed(RouteReason.REPLICA_READ);   // a prepared statement, executed again and again
        for (int i = 0; i < QueryShapes.ALWAYS_TIMED; i++) {
            assertEquals(1, shape.timesNext(), "execution " + i + " of a new shape: timed, for itself");
            shape.executed(true, 1_000, 1);
        }
        int timed = 0;
        for (int i = 0; i < 16_000; i++) {
            int weight = shape.timesNext();
            if (weight != 0) {
                assertEquals(16, weight, "a sampled execution stands for the 16 it was drawn from");
                timed++;
                shape.executed(true, 1_000, weight);
            }
            else {
                shape.executed(true);
            }
        }
        // one in 16 of 16,000 is 1,000 (standard deviation about 31): far from every one and from none
        assertTrue(timed > 600 && timed < 1_400, timed + " of 16,000 timed");
        QueryShapeStatistics s = shapes.report().get(0);
        assertEquals(16_000 + QueryShapes.ALWAYS_TIMED, s.replicaExecutions(), "every execution counted");
        assertEquals(Duration.ofNanos(1_000), s.replicaMeanTime(), "every execution took 1 us");

        QueryShapes everyOne = new QueryShapes(5, 1);
        QueryShapes.Shape all = everyOne.shape("a1", "select a", null, true);
        for (int i = 0; i < 1_000; i++) {
            assertEquals(1, all.timesNext());
            all.executed(false, 1_000, 1);
        }
    }

    /**
     * The first executions are timed every one, and are often the slowest (the statement prepared, the caches cold):
     * weighted as the one execution each stands for, they do not make the mean of thousands.
     */
    @Test
    void theMeanEstimatesThatOfEveryExecutionNotOfTheSlowFirstOnes() {
        QueryShapes shapes = new QueryShapes(5, 16);
        QueryShapes.Shape shape = shapes.shape("a1", "select a", null, true);
        shape.routed(RouteReason.REPLICA_READ);
        for (int i = 0; i < QueryShapes.ALWAYS_TIMED; i++) {
            shape.executed(true, 1_000_000, shape.timesNext());   // 1 ms each, cold
        }
        for (int i = 0; i < 16_000; i++) {
            int weight = shape.timesNext();
            if (weight != 0) {
                shape.executed(true, 1_000, weight);   // 1 us each, warm
            }
            else {
                shape.executed(true);
            }
        }
        // every execution: (8 x 1 ms + 16,000 x 1 us) / 16,008 = 1.5 us; the timed ones alone would say about 9 us
        long mean = shapes.report().get(0).replicaMeanTime().toNanos();
        assertTrue(mean > 1_300 && mean < 1_800, mean + " ns");
        assertEquals(Duration.ofMillis(1), shapes.report().get(0).replicaMaxTime());
    }

    @Test
    void theMeanAndTheLongestAreThoseOfTheTimedExecutions() {
        QueryShapes shapes = new QueryShapes(5, 16);
        QueryShapes.Shape shape = shapes.shape("a1", "select a", null, true);
        shape.routed(RouteReason.WRITE_TRANSACTION);
        for (int i = 0; i < 100; i++) {
            shape.executed(false);
        }
        shape.executed(false, 2_000_000);
        shape.executed(false, 4_000_000);
        QueryShapeStatistics s = shapes.report().get(0);
        assertEquals(102, s.primaryExecutions());
        assertEquals(Duration.ofMillis(3), s.primaryMeanTime());
        assertEquals(Duration.ofMillis(4), s.primaryMaxTime());
        assertEquals(0, s.replicaExecutions());
        assertEquals(Duration.ZERO, s.replicaMeanTime(), "none timed: no time");
    }
}
