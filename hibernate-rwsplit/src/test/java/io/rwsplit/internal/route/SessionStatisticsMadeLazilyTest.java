package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.internal.stats.SessionStatistics;
import io.rwsplit.internal.stats.StatisticsRecorder;

/**
 * A session's statistics are made at its second statement or when asked for, never for a session of one statement
 * nobody asks about; what they count is the same either way.
 */
class SessionStatisticsMadeLazilyTest {

    private static final RouteDecision ON_R1 = RouteDecision.replica("r1", RouteReason.REPLICA_READ);
    private static final RouteDecision WRITE = RouteDecision.primary(RouteReason.WRITE);

    /** A session that counts, and how often it made its statistics. */
    private static final class Counting extends SessionRouting {
        int made;

        Counting() {
            super(null, null);
        }

        @Override
        protected StatisticsRecorder newStatistics() {
            made++;
            return new SessionStatistics(List.of("r1"));
        }
    }

    @Test
    void aSessionOfOneStatementMakesItsStatisticsOnlyWhenAskedAndCountsThatStatement() {
        Counting session = new Counting();
        session.record(ON_R1, 0);
        assertEquals(0, session.made, "one statement: nothing made");
        SessionStatistics statistics = session.statistics();
        assertEquals(1, session.made);
        assertEquals(1, statistics.replicaStatements());
        assertEquals(Map.of("REPLICA_READ", 1L), statistics.byReason());
        assertEquals(Map.of("r1", 1L), statistics.byReplica());
        session.record(WRITE, -1);   // counted by the statistics handed out
        assertEquals(1, statistics.primaryStatements());
        assertSame(statistics, session.statistics());
        assertEquals(1, session.made);
    }

    @Test
    void aSecondStatementMakesThemWithBothCounted() {
        Counting session = new Counting();
        session.record(WRITE, -1);
        session.record(ON_R1, 0);
        assertEquals(1, session.made);
        assertEquals(1, session.statistics().primaryStatements());
        assertEquals(1, session.statistics().replicaStatements());
        assertEquals(ON_R1, session.statistics().lastDecision());
    }

    @Test
    void aSessionThatCountsNothingHasNoStatistics() {
        SessionRouting detached = new SessionRouting();
        detached.record(ON_R1, 0);
        detached.record(WRITE, -1);
        assertNull(detached.statistics());
    }
}
