package io.rwsplit.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;

/**
 * Runs one story under one consistency mode: {@code users} concurrent users, each doing
 * {@code iterations} times "write in one request, think a moment, read it back in the next request".
 * Every request is a new EntityManager, as in a web application.
 */
final class StoryRunner {

    static final String PERSISTENCE_UNIT = "demo";
    private static final Duration LAG_PROBE_TIMEOUT = Duration.ofSeconds(30);

    private final Backend backend;
    private final LagProbe probe;
    private final int users;
    private final int iterations;
    private final Duration maxThinkTime;
    private final PrintStream out;

    StoryRunner(Backend backend, LagProbe probe, int users, int iterations, Duration maxThinkTime, PrintStream out) {
        this.backend = backend;
        this.probe = probe;
        this.users = users;
        this.iterations = iterations;
        this.maxThinkTime = maxThinkTime;
        this.out = out;
    }

    /** What the read requests of a run add up to. */
    private static final class Tally {
        final LongAdder reads = new LongAdder();
        final LongAdder stale = new LongAdder();
        final LongAdder onReplica = new LongAdder();
        final LongAdder onPrimary = new LongAdder();
        final Map<String, LongAdder> reasons = new ConcurrentHashMap<>();

        void add(boolean sawOwnWrite, RoutingStatistics requestStatistics) {
            reads.increment();
            if (!sawOwnWrite) {
                stale.increment();
            }
            onReplica.add(requestStatistics.replicaStatements());
            onPrimary.add(requestStatistics.primaryStatements());
            requestStatistics.byReason().forEach((reason, n) -> reasons.computeIfAbsent(reason, r -> new LongAdder()).add(n));
        }
    }

    RunResult run(Story story, ConsistencyMode mode) throws InterruptedException {
        Map<String, Object> properties = new HashMap<>(backend.unitOverrides());
        properties.putAll(mode.unitSettings());
        // every replica read is audited, so that its count stands beside the demo's own
        properties.put(io.rwsplit.RwSplitSettings.AUDIT_SAMPLE, "1");
        String label = story.title() + " / " + mode;
        Tally tally = new Tally();
        RoutingStatistics all;
        LagProbe.Sampler lagSampler = probe.sample(LAG_PROBE_TIMEOUT);
        try (EntityManagerFactory emf = Persistence.createEntityManagerFactory(PERSISTENCE_UNIT, properties)) {
            runUsers(emf, story, mode, tally, label);
            all = RwSplit.statistics(emf);
        }
        finally {
            lagSampler.stop();
        }
        return new RunResult(story.title(), mode,
                tally.reads.sum(), tally.stale.sum(), tally.onReplica.sum(), tally.onPrimary.sum(), sorted(tally.reasons),
                all.primaryStatements(), all.replicaStatements(), all.byReason(), lagSampler.stop(), all.auditedReads(),
                all.unauditedReads(), all.staleReadsAgainstUnit(), all.staleReadsAgainstSession(),
                all.primaryReadShapes().stream().limit(3).toList());
    }

    private void runUsers(EntityManagerFactory emf, Story story, ConsistencyMode mode, Tally tally, String label)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(users);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> userRuns = new ArrayList<>();
            for (int u = 1; u <= users; u++) {
                long userId = u;
                userRuns.add(pool.submit(() -> {
                    go.await();
                    runUser(emf, story, mode, userId, tally);
                    return null;
                }));
            }
            go.countDown();
            awaitWithProgress(userRuns, tally, label);
        }
        finally {
            pool.shutdownNow();
        }
    }

    private void runUser(EntityManagerFactory emf, Story story, ConsistencyMode mode, long userId, Tally tally)
            throws InterruptedException {
        String userKey = "user-" + userId;
        SplittableRandom random = new SplittableRandom(userId);
        for (int i = 0; i < iterations; i++) {
            Story.ReadBack readBack;
            try (EntityManager request = emf.createEntityManager()) {
                mode.beginRequest(request, userKey);
                request.getTransaction().begin();
                readBack = story.write(request, userId);
                request.getTransaction().commit();
            }
            // the user looks at the confirmation page for a moment
            TimeUnit.MILLISECONDS.sleep(random.nextLong(maxThinkTime.toMillis() + 1));
            try (EntityManager nextRequest = emf.createEntityManager()) {
                mode.beginRequest(nextRequest, userKey);
                boolean sawOwnWrite = readBack.seesOwnWrite(nextRequest);
                tally.add(sawOwnWrite, RwSplit.statistics(nextRequest));
            }
        }
    }

    private void awaitWithProgress(List<Future<?>> userRuns, Tally tally, String label) throws InterruptedException {
        long expected = (long) users * iterations;
        for (Future<?> userRun : userRuns) {
            while (true) {
                try {
                    userRun.get(1, TimeUnit.SECONDS);
                    break;
                }
                catch (TimeoutException e) {
                    out.printf("  ... %-44s %5d/%d reads, %d stale%n", label, tally.reads.sum(), expected, tally.stale.sum());
                }
                catch (ExecutionException e) {
                    throw new IllegalStateException(label + ": a user's requests failed: " + e.getCause(), e.getCause());
                }
            }
        }
    }

    private static Map<String, Long> sorted(Map<String, LongAdder> counts) {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted;
    }
}
