package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.spi.ConsistencyStore;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.LogCapture;

/** What {@link ConsistencyRuntime} does with writes and reads while its store fails: no write is lost. */
class StoreOutageTest {

    private final FakeClock clock = new FakeClock();
    private final FlakyStore store = new FlakyStore(clock);
    private final LogCapture log = LogCapture.attach("io.rwsplit.consistency", Level.INFO);
    private final ConsistencyRuntime runtime = new ConsistencyRuntime(ConsistencyConfig.from(Map.of(
            RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES, "3", RwSplitSettings.CONSISTENCY_STORE_TTL, "PT1M")),
            clock, store, false);

    @AfterEach
    void close() {
        runtime.close();
        log.close();
    }

    private static ConsistencyToken write(long seq) {
        return ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-" + seq), seq);
    }

    /** A store that can refuse reads and records, each on its own. */
    static final class FlakyStore implements ConsistencyStore {
        final InMemoryConsistencyStore kept;
        volatile boolean readsFail;
        volatile boolean recordsFail;
        /** Records asked by the test's thread (the commit path here), not by the runtime's background thread. */
        final AtomicInteger records = new AtomicInteger();
        private final Thread test = Thread.currentThread();

        FlakyStore(FakeClock clock) {
            kept = new InMemoryConsistencyStore(clock, Duration.ofMinutes(1), 1_000);
        }

        void fail() {
            readsFail = true;
            recordsFail = true;
        }

        @Override
        public ConsistencyToken read(String scope) {
            if (readsFail) {
                throw new IllegalStateException("unreachable");
            }
            return kept.read(scope);
        }

        @Override
        public void record(String scope, ConsistencyToken write) {
            if (Thread.currentThread() == test) {
                records.incrementAndGet();
            }
            if (recordsFail) {
                throw new IllegalStateException("unreachable");
            }
            kept.record(scope, write);
        }
    }

    @Test
    void aWriteTheStoreRefusedIsWrittenOnceItAnswers() {
        store.fail();
        runtime.record("default:user-1", write(5));
        assertNull(store.kept.read("default:user-1"));
        assertEquals(1, runtime.pendingScopes());

        store.recordsFail = false;
        assertTrue(runtime.flushPending());
        assertEquals(write(5), store.kept.read("default:user-1"));
        assertEquals(0, runtime.pendingScopes());
    }

    @Test
    void whileTheStoreFailsWritesWaitWithoutAskingIt() {
        store.fail();
        runtime.record("default:user-1", write(5));
        int asked = store.records.get();
        runtime.record("default:user-1", write(6));
        runtime.record("default:user-2", write(7));
        assertEquals(asked, store.records.get(), "the commit path does not ask a store that just failed");
        assertEquals(2, runtime.pendingScopes());

        store.recordsFail = false;
        assertTrue(runtime.flushPending());
        assertEquals(write(6), store.kept.read("default:user-1"), "the waiting writes of a scope merged");
        assertEquals(write(7), store.kept.read("default:user-2"));
    }

    @Test
    void readsOfAScopeWrittenWhileTheStoreFailsReportItsStateUnknown() {
        store.fail();
        runtime.record("default:user-1", write(5));
        assertThrows(IllegalStateException.class, () -> runtime.read("default:user-1"));
        clock.advance(Duration.ofSeconds(2));
        assertThrows(IllegalStateException.class, () -> runtime.read("default:user-1"), "the store still fails");
    }

    @Test
    void oncePossibleReadsHonourTheWritesThatStillWait() {
        store.kept.record("default:user-1", write(3));
        store.fail();
        runtime.record("default:user-1", write(5));
        store.readsFail = false;             // reads answer again, records still fail: the write still waits
        clock.advance(Duration.ofSeconds(2));
        assertEquals(write(5), runtime.read("default:user-1"));
        assertEquals(write(3), store.kept.read("default:user-1"));
        assertEquals(1, runtime.pendingScopes());
    }

    @Test
    void aNewWriteOfAWaitingScopeTakesTheWaitingOneWithIt() {
        store.fail();
        runtime.record("default:user-1", write(5));
        store.readsFail = false;
        store.recordsFail = false;
        clock.advance(Duration.ofSeconds(2));
        runtime.read("default:user-2");      // the store answers again: records go to it directly
        runtime.record("default:user-1", ConsistencyToken.of(GtidPosition.parseMariaDb("1-1-9"), 9));
        assertEquals(ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-5,1-1-9"), 9), store.kept.read("default:user-1"));
        assertEquals(0, runtime.pendingScopes());
    }

    @Test
    void writesBeyondTheBoundMakeEveryScopeUnknownUntilTheOthersAreWrittenAndAreHonouredHereUntilTheTtl() {
        store.fail();
        for (int i = 1; i <= 5; i++) {
            runtime.record("default:user-" + i, write(i));
        }
        assertEquals(3, runtime.pendingScopes());
        List<String> warnings = log.lines().stream().filter(l -> l.contains("WARN") && l.contains("max_scopes")).toList();
        assertEquals(1, warnings.size(), log.lines().toString());

        store.readsFail = false;
        clock.advance(Duration.ofSeconds(2));
        assertThrows(IllegalStateException.class, () -> runtime.read("default:someone-else"),
                "while writes wait that did not fit, no scope's state is known");

        store.recordsFail = false;
        assertTrue(runtime.flushPending());
        assertEquals(write(5), runtime.read("default:someone-else"), "the writes that did not fit, merged");
        clock.advance(Duration.ofMinutes(1));
        assertNull(runtime.read("default:someone-else"));
    }

    @Test
    void closingWritesWhatWaits() {
        store.fail();
        runtime.record("default:user-1", write(5));
        store.recordsFail = false;
        runtime.close();
        assertEquals(write(5), store.kept.read("default:user-1"));
    }

    @Test
    void aSettlingStoreIsNotReportedAsFailed() {
        ConsistencyRuntime settling = new ConsistencyRuntime(ConsistencyConfig.from(Map.of()), clock,
                new ConsistencyStore() {
                    @Override
                    public ConsistencyToken read(String scope) {
                        throw new StoreSettlingException("settling");
                    }

                    @Override
                    public void record(String scope, ConsistencyToken write) {
                    }
                }, false);
        assertThrows(StoreSettlingException.class, () -> settling.read("default:user-1"));
        settling.record("default:user-1", write(1));
        assertEquals(0, settling.pendingScopes(), "records still go to the store");
        assertTrue(log.lines().stream().noneMatch(l -> l.contains("WARN")), log.lines().toString());
        settling.close();
    }
}
