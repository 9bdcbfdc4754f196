package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.LogCapture;

/**
 * A session's first read at the defaults makes no consistency state of its own: it requires the unit's last write as
 * it is. When the monitor's look at a new primary that lacks that write has published the loss but not yet re-based
 * what reads must see, such a first read is told of the loss, as a session with its state is, instead of requiring
 * the lost write in silence.
 */
class LazyFirstReadRaceTest {

    @Test
    void aFirstReadAfterTheLossIsPublishedIsToldOfIt() throws Exception {
        // each round's failover logs its loss at ERROR: not shown here
        try (LogCapture quiet = LogCapture.attach("io.rwsplit.consistency", ch.qos.logback.classic.Level.OFF)) {
            for (int round = 0; round < 2_000; round++) {
                round(round);
            }
        }
    }

    /** One failover against the first reads of new sessions, until the re-base is seen. */
    private static void round(int round) throws InterruptedException {
        FakeClock clock = new FakeClock();
        CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "test", new ServerEpochs(2));
        causal.newSession().committed(ConsistencyToken.of(LsnPosition.of(9_000), clock.epochMicros()));
        clock.advanceMillis(10);
        ConsistencyToken unit = causal.unitCommitted();
        AtomicBoolean go = new AtomicBoolean();
        Thread monitor = new Thread(() -> {
            while (!go.get()) {
                Thread.onSpinWait();
            }
            causal.primaryChanged(LsnPosition.of(8_000), LsnPosition.of(8_000));   // it lacks 9000
        });
        monitor.start();
        go.set(true);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (causal.rebased(unit) == unit && System.nanoTime() < deadline) {
            boolean published = causal.lostWrite(unit, null) != null;
            SessionRouting first = new SessionRouting(null) {
                @Override
                protected CausalReads causal() {
                    return causal;
                }
            };
            ConsistencyToken need = first.requirement();
            boolean told = first.takeLostWrite() != null;
            if (published && need == unit && !told) {
                fail("round " + round + ": a first read that began after the loss was published required the lost"
                        + " write without being told");
            }
        }
        monitor.join();
    }
}
