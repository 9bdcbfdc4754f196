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
    void threadAffinityGivesTheThreadsTheReplicasInTurnAndKeepsEachToItsOwn() {
        List<Replica> all = List.of(a, b, c);
        Map<String, Integer> threads = new HashMap<>();
        for (long key = 100; key < 106; key++) {   // the threads numbered 100 to 105 by their first reads
            long k = key;
            LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
            ReplicaView own = balancer.choose(all);
            for (int i = 0; i < 10; i++) {
                assertSame(own, balancer.choose(all), "thread " + key + " keeps to its replica");
            }
            threads.merge(own.name(), 1, Integer::sum);
        }
        assertEquals(Map.of("a", 2, "b", 2, "c", 2), threads);
    }

    @Test
    void threadAffinityNumbersTheThreadsByTheirFirstReadWhateverTheirIds() throws InterruptedException {
        List<Replica> two = List.of(a, b);
        LoadBalancer balancer = LoadBalancers.create("thread_affinity", two);
        Map<String, Integer> threads = new java.util.concurrent.ConcurrentHashMap<>();
        for (int i = 0; i < 8; i++) {
            Thread reader = new Thread(() -> {
                ReplicaView own = balancer.choose(two);
                for (int read = 0; read < 10; read++) {
                    assertSame(own, balancer.choose(two));
                }
                threads.merge(own.name(), 1, Integer::sum);
            });
            Thread sibling = new Thread(() -> { });   // made in pairs: the readers' ids have a stride of 2
            reader.start();
            sibling.start();
            reader.join();
            sibling.join();
        }
        assertEquals(Map.of("a", 4, "b", 4), threads);
    }

    @Test
    void threadAffinityKeepsAThreadOnItsOwnWhenTheCandidatesAreFiltered() {
        List<Replica> all = List.of(a, b, c);
        for (long key = 0; key < 6; key++) {
            long k = key;
            LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
            ReplicaView own = balancer.choose(all);
            for (List<Replica> some : List.of(List.of(a, b), List.of(a, c), List.of(b, c), List.of(c, b))) {
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
    void threadAffinitySpreadsTheThreadsOfAReplicaLeftOutOverAllTheOthers() {
        List<Replica> all = List.of(a, b, c);
        for (Replica down : all) {
            List<Replica> up = all.stream().filter(r -> r != down).toList();
            Map<String, Integer> moved = new HashMap<>();
            for (long key = 0; key < 30; key++) {
                long k = key;
                LoadBalancer balancer = new ThreadAffinityBalancer(all, () -> k);
                if (balancer.choose(all) == down) {
                    moved.merge(balancer.choose(up).name(), 1, Integer::sum);
                }
            }
            assertEquals(Map.of(up.get(0).name(), 5, up.get(1).name(), 5), moved, down.name() + " down");
        }
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
