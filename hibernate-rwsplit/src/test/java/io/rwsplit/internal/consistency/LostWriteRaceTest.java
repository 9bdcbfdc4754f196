package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;

/**
 * A session asks what its read must see while the monitor's look at a new primary lands in another thread: the
 * failover lost the write the session required, and the re-base replaces that requirement. However the two
 * interleave, the session is told of the lost write exactly once: never re-based past it in silence (its read would
 * be served without the write, as if nothing were lost), never told twice.
 */
class LostWriteRaceTest {

    private static final LsnPosition WRITE = LsnPosition.of(9_000);
    private static final LsnPosition NEW_PRIMARY = LsnPosition.of(8_000);

    @Test
    void aSessionAskingAsTheFailoverLandsIsToldOfTheLostWriteExactlyOnce() throws Exception {
        // each round's failover logs its loss at ERROR: 5,000 of them say nothing here
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) ConsistencyRuntime.log;
        ch.qos.logback.classic.Level configured = log.getLevel();
        log.setLevel(ch.qos.logback.classic.Level.OFF);
        try {
            rounds();
        }
        finally {
            log.setLevel(configured);
        }
    }

    private static void rounds() throws InterruptedException {
        for (int round = 0; round < 5_000; round++) {
            FakeClock clock = new FakeClock();
            CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default",
                    new ServerEpochs(2));
            SessionConsistency session = causal.newSession();
            session.committed(ConsistencyToken.of(WRITE, clock.epochMicros()));
            session.requirement();   // its reads require the write
            clock.advanceMillis(10);

            java.util.concurrent.atomic.AtomicBoolean go = new java.util.concurrent.atomic.AtomicBoolean();
            Thread monitor = new Thread(() -> {
                while (!go.get()) {
                    Thread.onSpinWait();
                }
                causal.primaryChanged(NEW_PRIMARY, NEW_PRIMARY);   // the new primary lacks the write
            });
            monitor.start();
            int told = 0;
            go.set(true);
            ConsistencyToken need;
            do {
                need = session.requirement();
                told += session.takeLostWrite() != null ? 1 : 0;
            }
            while (!NEW_PRIMARY.equals(need.positionOrNull()));
            monitor.join();
            session.requirement();   // a read after the re-base was seen
            told += session.takeLostWrite() != null ? 1 : 0;
            assertEquals(1, told, "round " + round + ": times the session was told of the lost write");
        }
    }
}
