package io.rwsplit.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Both stories, briefly, on the embedded default: the broken mode must show stale reads (or the demo
 * proves nothing) and the fixed mode must show none.
 */
class StaleReadStoriesTest {

    private static final int USERS = 4;
    private static final int ITERATIONS = 8;

    private static List<RunResult> results;

    @BeforeAll
    static void runDemo() throws Exception {
        DemoOptions options = DemoOptions.parse("--users", String.valueOf(USERS), "--iterations", String.valueOf(ITERATIONS),
                "--delay-ms", "150");
        results = new Demo(options, System.out).run();
        Report.print(results, System.out);
    }

    private static List<RunResult> runsOf(ConsistencyMode mode) {
        return results.stream().filter(r -> r.mode() == mode).toList();
    }

    @Test
    void eventualConsistencyShowsStaleReadsInBothStoriesWhileReplicasLag() {
        List<RunResult> eventual = runsOf(ConsistencyMode.EVENTUAL);
        assertEquals(2, eventual.size());
        for (RunResult run : eventual) {
            assertEquals(USERS * ITERATIONS, run.reads(), run.story());
            assertTrue(run.staleReads() > 0, run.story() + ": no stale read under EVENTUAL, so the demo shows nothing");
            assertEquals(1.0, run.replicaShare(), run.story() + ": every read went to a replica");
            assertEquals(run.reads(), run.readReasons().get("REPLICA_READ"), run.story());
        }
    }

    @Test
    void readYourWritesShowsNoStaleReadInEitherStory() {
        List<RunResult> fixed = runsOf(ConsistencyMode.READ_YOUR_WRITES);
        assertEquals(2, fixed.size());
        for (RunResult run : fixed) {
            assertEquals(USERS * ITERATIONS, run.reads(), run.story());
            assertEquals(0, run.staleReads(), run.story() + ": stale reads under READ_YOUR_WRITES");
        }
    }

    @Test
    void replicaLagIsMeasuredDuringEveryRun() {
        for (RunResult run : results) {
            assertTrue(run.lag().samples() > 0, run.story() + " / " + run.mode());
            assertTrue(run.lag().max().toMillis() >= 150, "lag below the simulated delay: " + run.lag());
        }
    }
}
