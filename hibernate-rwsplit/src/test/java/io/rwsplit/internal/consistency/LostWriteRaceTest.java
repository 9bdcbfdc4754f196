package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.LogCapture;

/**
 * A session asks what its read must see while the monitor's look at a new primary lands in another thread: the
 * failover lost the write the session required, and the re-base replaces that requirement. However the two
 * interleave, the session is told of the lost write exactly once: never re-based past it in silence (its read would
 * be served without the write, as if nothing were lost), never told twice.
 */
class LostWriteRaceTest {

    private static final LsnPosition WRITE = LsnPosition.of(9_000);
    private static final LsnPosition NEW_PRIMARY = LsnPosition.of(8_000);

    /** What the session's reads require when the failover lands, set up on a new unit's state. */
    @FunctionalInterface
    private interface Reader {
        SessionConsistency before(CausalReads causal, FakeClock clock);
    }

    /** What happens in the monitor's thread just before it sees the new primary. */
    @FunctionalInterface
    private interface JustBefore {
        void run(CausalReads causal, FakeClock clock);
    }

    @Test
    void aSessionAskingAsTheFailoverLandsIsToldOfTheLostWriteExactlyOnce() throws Exception {
        quietly(() -> rounds((causal, clock) -> {
            SessionConsistency session = causal.newSession();
            session.committed(ConsistencyToken.of(WRITE, clock.epochMicros()));
            session.requirement();   // its reads require the write
            return session;
        }, (causal, clock) -> { }));
    }

    /**
     * Two lost writes in one requirement: a token from another instance, and the unit's write committed just before the
     * failover, since the session last asked. Seen before the re-base and after, in one token or in their merge: told
     * once.
     */
    @Test
    void aSessionRequiringTwoWritesTheFailoverLostIsToldOnce() throws Exception {
        quietly(() -> rounds((causal, clock) -> {
            SessionConsistency session = causal.newSession();
            causal.newSession().committed(ConsistencyToken.of(WRITE, clock.epochMicros()));
            session.require(ConsistencyToken.of(LsnPosition.of(9_500), clock.epochMicros()));
            session.requirement();
            return session;
        }, (causal, clock) -> {
            causal.newSession().committed(ConsistencyToken.of(LsnPosition.of(9_100), clock.epochMicros()));
            clock.advanceMillis(1);
        }));
    }

    @FunctionalInterface
    private interface Rounds {
        void run() throws InterruptedException;
    }

    /** Runs {@code rounds} with the consistency logger off: each round's failover logs its loss at ERROR. */
    private static void quietly(Rounds rounds) throws InterruptedException {
        try (LogCapture quiet = LogCapture.attach("io.rwsplit.consistency", ch.qos.logback.classic.Level.OFF)) {
            rounds.run();
        }
    }

    private static void rounds(Reader reader, JustBefore justBefore) throws InterruptedException {
        for (int round = 0; round < 5_000; round++) {
            FakeClock clock = new FakeClock();
            CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default",
                    new ServerEpochs(2));
            SessionConsistency session = reader.before(causal, clock);
            clock.advanceMillis(10);

            java.util.concurrent.atomic.AtomicBoolean go = new java.util.concurrent.atomic.AtomicBoolean();
            Thread monitor = new Thread(() -> {
                while (!go.get()) {
                    Thread.onSpinWait();
                }
                justBefore.run(causal, clock);
                causal.primaryChanged(NEW_PRIMARY, NEW_PRIMARY);   // the new primary lacks the writes
            });
            monitor.start();
            int told = 0;
            go.set(true);
            ConsistencyToken need;
            long deadline = System.nanoTime() + 10_000_000_000L;
            do {
                need = session.requirement();
                told += session.takeLostWrite() != null ? 1 : 0;
                if (System.nanoTime() > deadline) {
                    monitor.join();
                    fail("round " + round + ": the requirement was never re-based: " + need + ", again "
                            + session.requirement() + "; the unit's " + causal.unitCommitted());
                }
            }
            while (!NEW_PRIMARY.equals(need.positionOrNull()));
            monitor.join();
            session.requirement();   // a read after the re-base was seen
            told += session.takeLostWrite() != null ? 1 : 0;
            assertEquals(1, told, "round " + round + ": times the session was told of the lost write");
        }
    }
}
