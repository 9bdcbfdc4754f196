package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.consistency.ConsistencyStoreContract;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.internal.consistency.RedisConsistencyStore;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.ConsistencyStore;

/** The Redis store against a real Redis server (see {@link RedisServer}). */
class RedisConsistencyStoreIT extends ConsistencyStoreContract {

    private final RedisConsistencyStore store = new RedisConsistencyStore(RedisServer.url(),
            "rwsplit-test:" + UUID.randomUUID() + ":", Duration.ofMinutes(1), Duration.ofSeconds(2), Clock.SYSTEM);

    @Override
    protected ConsistencyStore store() {
        return store;
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** Up to 8 writes of one scope in flight at once (commit order = counter order) never lose the newest. */
    @Test
    void concurrentWritersNeverLoseTheNewestWrite() throws Exception {
        String scope = "busy";
        java.util.concurrent.atomic.AtomicLong commitOrder = new java.util.concurrent.atomic.AtomicLong();
        Thread[] writers = new Thread[8];
        for (int w = 0; w < writers.length; w++) {
            writers[w] = new Thread(() -> {
                for (int i = 1; i <= 50; i++) {
                    store.record(scope, ConsistencyToken.withoutPosition(commitOrder.incrementAndGet()));
                }
            });
            writers[w].start();
        }
        for (Thread t : writers) {
            t.join();
        }
        assertEquals(400, store.read(scope).commitTimeMicros());
    }

    @Test
    void entriesExpire() {
        RedisConsistencyStore shortLived = new RedisConsistencyStore(RedisServer.url(),
                "rwsplit-test:" + UUID.randomUUID() + ":", Duration.ofMillis(1), Duration.ofSeconds(2), Clock.SYSTEM);
        try {
            shortLived.record("gone", ConsistencyToken.withoutPosition(1));
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (shortLived.read("gone") != null && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // Redis expires the key on its own clock
            }
            assertTrue(shortLived.read("gone") == null, "expired after the TTL");
        }
        finally {
            shortLived.close();
        }
    }
}
