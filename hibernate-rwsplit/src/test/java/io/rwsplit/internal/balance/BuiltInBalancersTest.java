package io.rwsplit.internal.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

class BuiltInBalancersTest {

    private static Map<String, Integer> picks(LoadBalancer balancer, List<Replica> candidates, int n) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(balancer.choose(candidates).name(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void weightedThreeToOneSplitsTenThousandReadsSeventyFiveTwentyFive() {
        List<Replica> candidates = List.of(Replica.weighted("a", 3), Replica.weighted("b", 1));
        Map<String, Integer> counts = picks(new WeightedBalancer(), candidates, 10_000);
        double shareA = counts.get("a") / 10_000.0;
        System.out.println("weighted 3:1 over 10,000 picks: " + counts);
        assertEquals(0.75, shareA, 0.03);
        assertEquals(7500, counts.get("a"), "smooth weighted round-robin is exact over whole rounds");
    }

    @Test
    void weightedIsSmoothNotBursty() {
        List<Replica> candidates = List.of(Replica.weighted("a", 3), Replica.weighted("b", 1));
        WeightedBalancer balancer = new WeightedBalancer();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            order.add(balancer.choose(candidates).name());
        }
        assertEquals(List.of("a", "a", "b", "a", "a", "a", "b", "a"), order);
    }

    @Test
    void weightedStaysRightWhenAReplicaLeavesAndReturns() {
        Replica a = Replica.weighted("a", 3);
        Replica b = Replica.weighted("b", 1);
        Replica c = Replica.weighted("c", 4);
        WeightedBalancer balancer = new WeightedBalancer();
        List<Replica> all = List.of(a, b, c);
        Map<String, Integer> before = picks(balancer, all, 8000);
        assertEquals(Map.of("a", 3000, "b", 1000, "c", 4000), before);

        List<Replica> withoutC = List.of(a, b);
        Map<String, Integer> during = picks(balancer, withoutC, 8000);
        assertEquals(Map.of("a", 6000, "b", 2000), during);

        List<Replica> back = List.of(a, b, c);
        Map<String, Integer> after = picks(balancer, back, 8000);
        assertEquals(Map.of("a", 3000, "b", 1000, "c", 4000), after);
    }

    @Test
    void weightedHandlesHugeWeightsWithoutAHugeSchedule() {
        List<Replica> candidates = List.of(Replica.weighted("a", 300_000), Replica.weighted("b", 100_001));
        Map<String, Integer> counts = picks(new WeightedBalancer(), candidates, 400_001);
        assertEquals(300_000, counts.get("a"));
        assertEquals(100_001, counts.get("b"));
    }

    @Test
    void roundRobinSurvivesCounterOverflow() {
        RoundRobinBalancer balancer = new RoundRobinBalancer(Integer.MAX_VALUE - 5);
        List<Replica> candidates = List.of(Replica.named("a"), Replica.named("b"), Replica.named("c"));
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            order.add(balancer.choose(candidates).name());
        }
        // no exception, never negative, and still a rotation through every candidate
        Map<String, Integer> counts = new HashMap<>();
        order.forEach(n -> counts.merge(n, 1, Integer::sum));
        assertEquals(Map.of("a", 4, "b", 4, "c", 4), counts, order.toString());
    }

    @Test
    void leastLagPicksTheFreshestReplica() {
        List<Replica> candidates = List.of(new Replica("slow", 1, 1, 800_000, 0), new Replica("fresh", 1, 1, 2_000, 0),
                new Replica("medium", 1, 1, 50_000, 0));
        LeastLagBalancer balancer = new LeastLagBalancer();
        for (int i = 0; i < 100; i++) {
            assertEquals("fresh", balancer.choose(candidates).name());
        }
    }

    @Test
    void leastLagSharesTiesInTurn() {
        List<Replica> candidates = List.of(Replica.named("a"), Replica.named("b"));
        assertEquals(Map.of("a", 50, "b", 50), picks(new LeastLagBalancer(), candidates, 100));
    }

    @Test
    void leastInFlightNeverPicksTheBusiestOfTwo() {
        Replica idle = new Replica("idle", 1, 1, 0, 0);
        Replica busy = new Replica("busy", 1, 1, 0, 7);
        LeastInFlightBalancer balancer = new LeastInFlightBalancer();
        for (int i = 0; i < 1000; i++) {
            assertSame(idle, balancer.choose(List.of(busy, idle)));
        }
    }

    @Test
    void leastInFlightAvoidsTheBusiestOfMany() {
        List<Replica> candidates = List.of(new Replica("a", 1, 1, 0, 0), new Replica("b", 1, 1, 0, 1),
                new Replica("c", 1, 1, 0, 9));
        Map<String, Integer> counts = picks(new LeastInFlightBalancer(), candidates, 9000);
        // with two distinct choices the busiest replica can never win
        assertEquals(null, counts.get("c"), counts.toString());
        assertTrue(counts.get("a") > counts.get("b"), counts.toString());
    }

    @Test
    void randomIsRoughlyUniform() {
        List<Replica> candidates = List.of(Replica.named("a"), Replica.named("b"));
        Map<String, Integer> counts = picks(new RandomBalancer(), candidates, 10_000);
        assertEquals(0.5, counts.get("a") / 10_000.0, 0.05);
    }

    private final Replica a = Replica.named("a");
    private final Replica b = Replica.named("b");
    private final Replica c = Replica.named("c");

    @Test
    void threadAffinitySpreadsConsecutiveThreadsEvenlyAndKeepsEachToItsOwn() {
        List<Replica> all = List.of(a, b, c);
        for (long first = 0; first < 1_000; first++) {   // six or nine threads made one after another, from any id
            for (int threads : new int[] {6, 9}) {
                Map<String, Integer> counts = new HashMap<>();
                for (long key = first; key < first + threads; key++) {
                    long k = key;
                    LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
                    ReplicaView own = balancer.choose(all);
                    assertSame(own, balancer.choose(all), "thread " + key + " keeps to its replica");
                    counts.merge(own.name(), 1, Integer::sum);
                }
                assertEvenly(counts, threads, 3, "threads " + first + ".." + (first + threads - 1));
            }
        }
    }

    @Test
    void threadAffinitySpreadsThreadsMadeInPairs() {
        List<Replica> two = List.of(a, b);
        for (long first = 0; first < 1_000; first++) {   // eight threads with even ids (i mod 2 would put all on one)
            Map<String, Integer> counts = new HashMap<>();
            for (long key = first; key < first + 16; key += 2) {
                long k = key;
                counts.merge(new ThreadAffinityBalancer(two, () -> k).choose(two).name(), 1, Integer::sum);
            }
            assertEvenly(counts, 8, 2, "threads " + first + ", " + (first + 2) + ", ... " + (first + 14));
        }
    }

    /** Each of {@code replicas} has {@code threads / replicas} threads, one more or one less at most. */
    private static void assertEvenly(Map<String, Integer> counts, int threads, int replicas, String which) {
        assertEquals(replicas, counts.size(), which + ": " + counts);
        counts.values().forEach(n -> assertTrue(Math.abs(n - threads / replicas) <= 1, which + ": " + counts));
    }

    @Test
    void threadAffinityKeepsAThreadOnItsOwnWhenTheCandidatesAreFiltered() {
        List<Replica> all = List.of(a, b, c);
        for (long key = 0; key < 6; key++) {
            long k = key;
            LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
            ReplicaView own = balancer.choose(all);
            for (List<Replica> some : List.of(List.of(a, b), List.of(a, c), List.of(b, c))) {
                ReplicaView chosen = balancer.choose(some);
                if (some.contains(own)) {
                    assertSame(own, chosen, "thread " + key + " among " + some + ": its own is a candidate");
                }
                else {
                    assertTrue(some.contains(chosen), "thread " + key + " among " + some);
                }
            }
        }
    }

    @Test
    void threadAffinitySpreadsTheThreadsOfAReplicaLeftOutOverTheOthers() {
        List<Replica> all = List.of(a, b, c);
        Map<String, Integer> moved = new HashMap<>();
        for (long key = 0; key < 30; key++) {
            long k = key;
            LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
            if (balancer.choose(all) == b) {
                moved.merge(balancer.choose(List.of(a, c)).name(), 1, Integer::sum);   // b is down
            }
        }
        assertEquals(Map.of("a", 4, "c", 5), moved);
    }

    @Test
    void threadAffinityCountsEachTierApart() {
        Replica far = new Replica("far", 1, 2, 0, 0);
        List<Replica> all = List.of(a, b, far);
        Map<String, Integer> threads = new HashMap<>();
        for (long key = 0; key < 4; key++) {
            long k = key;
            LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
            threads.merge(balancer.choose(List.of(a, b)).name(), 1, Integer::sum);   // tier 1 is up
            assertSame(far, balancer.choose(List.of(far)), "tier 2 alone: every thread there");
        }
        assertEquals(Map.of("a", 2, "b", 2), threads);
    }
}
