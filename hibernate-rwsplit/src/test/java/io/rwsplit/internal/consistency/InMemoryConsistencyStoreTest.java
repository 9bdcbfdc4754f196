package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.FakeClock;

class InMemoryConsistencyStoreTest {

    private final FakeClock clock = new FakeClock();
    private final InMemoryConsistencyStore store = new InMemoryConsistencyStore(clock, Duration.ofSeconds(10), 100);

    @Test
    void unknownScopeHasNoWrite() {
        assertNull(store.read("nobody"));
    }

    @Test
    void keepsTheMergeOfRecordedWrites() {
        store.record("u1", ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-5"), 100));
        store.record("u1", ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-3,1-1-7"), 90));
        ConsistencyToken t = store.read("u1");
        assertEquals(100, t.commitTimeMicros());
        assertEquals(GtidPosition.parseMariaDb("0-1-5,1-1-7"), t.positionOrNull());
    }

    @Test
    void entriesExpireAfterTheTtlSinceTheLastWrite() {
        store.record("u1", ConsistencyToken.withoutPosition(100));
        clock.advance(Duration.ofSeconds(9));
        assertNotNull(store.read("u1"));
        store.record("u1", ConsistencyToken.withoutPosition(200));
        clock.advance(Duration.ofSeconds(9));
        assertEquals(200, store.read("u1").commitTimeMicros());
        clock.advance(Duration.ofSeconds(1));
        assertNull(store.read("u1"));
    }

    @Test
    void anExpiredWriteIsNotMergedIntoANewOne() {
        store.record("u1", ConsistencyToken.withoutPosition(500));
        clock.advance(Duration.ofSeconds(11));
        store.record("u1", ConsistencyToken.withoutPosition(100));
        assertEquals(100, store.read("u1").commitTimeMicros());
    }

    @Test
    void staysWithinItsBoundDroppingExpiredThenOldestEntries() {
        for (int i = 0; i < 100; i++) {
            store.record("old" + i, ConsistencyToken.withoutPosition(i));
        }
        clock.advance(Duration.ofSeconds(5));
        for (int i = 0; i < 50; i++) {
            store.record("new" + i, ConsistencyToken.withoutPosition(i));
        }
        assertTrue(store.size() <= 100, "size " + store.size());
        for (int i = 0; i < 50; i++) {
            assertNotNull(store.read("new" + i), "newest entries are kept");
        }
    }

    @Test
    void rejectsANonPositiveTtl() {
        assertThrows(IllegalArgumentException.class, () -> new InMemoryConsistencyStore(clock, Duration.ZERO, 10));
    }
}
