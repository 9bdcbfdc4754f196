package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void lagIsTheTimeSinceTheReplicaStoppedApplying() {
        Timeline<Long> t = new Timeline<>(8, 1000);
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
        assertEquals(0, new Timeline<Long>(4, 100).lagMicros(ts -> false, 99));
    }

    @Test
    void forgetsOldMarksBeyondItsCapacity() {
        Timeline<Long> t = new Timeline<>(3, 100);
        for (long ts = 1; ts <= 10; ts++) {
            t.add(ts, ts * 100);
        }
        assertEquals(1000 - 800, t.lagMicros(ts -> ts <= 0, 1000));
        assertEquals(1010 - 1000, t.lagMicros(ts -> ts <= 9, 1010), "misses only the newest: in flight");
        assertEquals(1000 - 800, t.lagMicros(ts -> ts <= 8, 1000));
    }

    @Test
    void theNewestMarkOnlyMissingCountsAsInFlightWhenYoungOrRegular() {
        Timeline<Long> t = new Timeline<>(8, 500);
        t.add(1L, 1_000);
        t.add(2L, 1_250);
        t.add(3L, 1_500);
        assertEquals(2_600 - 1_500, t.lagMicros(ts -> ts <= 2, 2_600), "regular marks: in flight however old");
        t.add(4L, 4_500); // the writer could not write for 3 ms (primary busy, pool exhausted)
        assertEquals(4_600 - 4_500, t.lagMicros(ts -> ts <= 3, 4_600), "a young mark after a gap: in flight");
        assertEquals(5_100 - 1_500, t.lagMicros(ts -> ts <= 3, 5_100),
                "still missing once no longer in flight: behind since the mark before the gap");
        assertEquals(0, t.lagMicros(ts -> ts <= 4, 5_100));
    }

    /**
     * A scripted run: the application commits every 20 ms, the replica applies what was committed {@code delay}
     * before, the monitor writes a mark every 250 ms but writes only one mark in a stretch of 3 s, and probes every
     * 250 ms. While the replica misses a mark that is no longer in flight, the estimate is never lower than its true
     * staleness (the time since the newest commit it applied) minus the 20 ms between commits. (A replica that has
     * applied every mark reads 0: nothing the monitor wrote says it is behind.)
     */
    @Test
    void aStalledMarkWriterNeverMakesTheLagReadLowerThanTheReplicaIsBehind() {
        long interval = 250_000;
        long delay = 1_200_000;
        Timeline<Long> t = Timeline.every(Duration.ofNanos(interval * 1000));
        List<Long> marks = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (long now = 0; now <= 12_000_000; now += 10_000) {
            boolean stalled = now > 5_000_000 && now < 8_000_000 && now != 6_000_000;
            if (now % interval == 0 && !stalled) {
                t.add(now, now);
                marks.add(now);
            }
            if (now % interval == 120_000 && now > delay) {
                long appliedUpTo = now - delay;
                long truth = now - (appliedUpTo / 20_000 * 20_000);
                long lag = t.lagMicros(ts -> ts <= appliedUpTo, now);
                long at = now;
                boolean missesAMarkNoLongerInFlight = marks.stream().anyMatch(m -> m > appliedUpTo && at - m > 2 * interval);
                if (missesAMarkNoLongerInFlight && lag < truth - 20_000) {
                    wrong.add("at " + now / 1000 + " ms: lag " + lag / 1000 + " ms, behind " + truth / 1000 + " ms");
                }
                checked++;
            }
        }
        assertTrue(checked > 40);
        assertEquals(List.of(), wrong);
    }
}
