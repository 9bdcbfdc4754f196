package io.rwsplit.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void lagIsTheTimeSinceTheReplicaStoppedApplying() {
        Timeline<Long> t = new Timeline<>(8);
        for (long ts = 1000; ts <= 5000; ts += 1000) {
            t.add(ts, ts);
        }
        assertEquals(0, t.lagMicros(ts -> ts <= 5000, 5010), "caught up");
        assertEquals(10, t.lagMicros(ts -> ts <= 4000, 5010), "misses the newest mark, written 10 us ago");
        assertEquals(3010, t.lagMicros(ts -> ts <= 2000, 5010), "since its newest applied mark");
        assertEquals(4010, t.lagMicros(ts -> false, 5010), "applied nothing remembered: since the oldest");
    }

    @Test
    void noMarkMeansNoKnownLag() {
        assertEquals(0, new Timeline<Long>(4).lagMicros(ts -> false, 99));
    }

    @Test
    void forgetsOldMarksBeyondItsCapacity() {
        Timeline<Long> t = new Timeline<>(3);
        for (long ts = 1; ts <= 10; ts++) {
            t.add(ts, ts * 100);
        }
        assertEquals(1000 - 800, t.lagMicros(ts -> false, 1000));
        assertEquals(1010 - 1000, t.lagMicros(ts -> ts <= 9, 1010), "misses only the newest: in flight");
        assertEquals(1000 - 800, t.lagMicros(ts -> ts <= 8, 1000));
    }
}
