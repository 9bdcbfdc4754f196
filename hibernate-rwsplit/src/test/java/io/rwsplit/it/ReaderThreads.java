package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * An application's reader threads as the default load balancer sees them: made one after another, each keeping to one
 * replica. Shared by the routing tests of both databases.
 */
final class ReaderThreads {

    /** More threads than any fair spread over a few replicas needs before each served. */
    private static final int MAX_THREADS = 64;

    private ReaderThreads() {
    }

    /**
     * Runs {@code reads} in new threads, one after another, until {@code servers} different servers have served
     * them (at most {@value #MAX_THREADS} threads). {@code reads} adds the server of each read to the set it is given;
     * every thread's reads must have been served by one server. A failure in a thread fails the test with its cause.
     *
     * @return every server that served a thread
     */
    static Set<Integer> eachOnOneServerUntil(int servers, Consumer<Set<Integer>> reads) throws InterruptedException {
        Set<Integer> seen = new HashSet<>();
        for (int thread = 0; thread < MAX_THREADS && seen.size() < servers; thread++) {
            Set<Integer> byThread = ConcurrentHashMap.newKeySet();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    reads.accept(byThread);
                }
                catch (Throwable t) {
                    failed.set(t);
                }
            });
            reader.start();
            reader.join();
            if (failed.get() != null) {
                throw new AssertionError("a reader thread failed: " + failed.get(), failed.get());
            }
            assertEquals(1, byThread.size(), "one thread's reads on one server: " + byThread);
            seen.addAll(byThread);
        }
        return seen;
    }
}
