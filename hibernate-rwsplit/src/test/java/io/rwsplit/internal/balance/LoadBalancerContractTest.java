package io.rwsplit.internal.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/** What every built-in {@link LoadBalancer} promises, run against each of them by name. */
class LoadBalancerContractTest {

    static List<String> balancers() {
        return List.copyOf(LoadBalancers.names());
    }

    private final List<Replica> three = List.of(Replica.named("a"), Replica.named("b"), Replica.named("c"));

    @ParameterizedTest
    @MethodSource("balancers")
    void alwaysPicksOneOfTheCandidates(String name) {
        LoadBalancer balancer = LoadBalancers.create(name);
        for (int i = 0; i < 1000; i++) {
            assertTrue(three.contains(balancer.choose(three)));
        }
    }

    @ParameterizedTest
    @MethodSource("balancers")
    void picksTheOnlyCandidate(String name) {
        List<Replica> one = List.of(Replica.named("only"));
        assertSame(one.get(0), LoadBalancers.create(name).choose(one));
    }

    @ParameterizedTest
    @MethodSource("balancers")
    void followsTheCandidateListWhenItChanges(String name) {
        LoadBalancer balancer = LoadBalancers.create(name);
        balancer.choose(three);
        List<Replica> two = List.of(three.get(0), three.get(2));
        for (int i = 0; i < 100; i++) {
            assertTrue(two.contains(balancer.choose(two)));
        }
    }

    /** The balancers that spread one caller's reads (all but thread_affinity, which keeps a thread to one replica). */
    static List<String> perCallBalancers() {
        return LoadBalancers.names().stream().filter(name -> !name.equals("thread_affinity")).toList();
    }

    @ParameterizedTest
    @MethodSource("perCallBalancers")
    void equalReplicasAllGetTheReadsOfOneCaller(String name) {
        LoadBalancer balancer = LoadBalancers.create(name);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 3000; i++) {
            counts.merge(balancer.choose(three).name(), 1, Integer::sum);
        }
        assertEquals(3, counts.size(), name + " " + counts);
        counts.values().forEach(n -> assertTrue(n > 600, name + " " + counts));
    }

    @ParameterizedTest
    @MethodSource("balancers")
    void equalReplicasAllGetTheReadsOfAnApplicationsThreads(String name) throws InterruptedException {
        LoadBalancer balancer = LoadBalancers.create(name, three);
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        // six threads one after another, as an application's: a balancer that spreads by thread (thread_affinity) is
        // held to spreading them as one that spreads by call is
        for (int t = 0; t < 6; t++) {
            Thread reader = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    counts.merge(balancer.choose(three).name(), 1, Integer::sum);
                }
            });
            reader.start();
            reader.join();
        }
        assertEquals(3, counts.size(), name + " " + counts);
        counts.values().forEach(n -> assertTrue(n > 1000, name + " " + counts));
    }

    @ParameterizedTest
    @MethodSource("balancers")
    void isSafeForConcurrentCallers(String name) throws InterruptedException {
        LoadBalancer balancer = LoadBalancers.create(name);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger wrong = new AtomicInteger();
        Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        for (int t = 0; t < 8; t++) {
            pool.execute(() -> {
                try {
                    start.await();
                }
                catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 10_000; i++) {
                    ReplicaView v = balancer.choose(three);
                    if (!three.contains(v)) {
                        wrong.incrementAndGet();
                    }
                    counts.computeIfAbsent(v.name(), k -> new AtomicInteger()).incrementAndGet();
                }
            });
        }
        start.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(0, wrong.get());
        assertEquals(80_000, counts.values().stream().mapToInt(AtomicInteger::get).sum());
    }

    @ParameterizedTest
    @MethodSource("balancers")
    void isCreatedByItsNameInAnyCase(String name) {
        assertTrue(LoadBalancers.create(name.toUpperCase()) != null);
    }

    @org.junit.jupiter.api.Test
    void unknownNameIsRejectedWithTheKnownNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadBalancers.create("fastest"));
        assertTrue(e.getMessage().contains("fastest") && e.getMessage().contains("least_lag"), e.getMessage());
    }
}
