package io.rwsplit.internal.balance;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/**
 * Each thread keeps to one replica, its own, and the threads take the replicas in turn: a thread's number is the order
 * in which it first read through this balancer (0, 1, 2, ...), and among the replicas of a tier, in configuration
 * order, the thread numbered {@code i} has the one at {@code i mod n} ({@code n} the tier's replicas). So the threads
 * spread evenly in the order of their first reads, however their ids run (a pool's threads made among others, in
 * pairs, a new thread per request), and a thread with a number keeps it for the balancer's life. A thread that ends
 * keeps its number: when a pool replaces its threads, the living ones may be uneven over the replicas.
 * <p>
 * A thread reads on its own replica whenever it is a candidate, also when a read's candidates are filtered (the
 * replicas caught up to what it must see, the ones within a staleness bound) or one of the others is down. When its
 * own is left out, the threads of that replica take the candidates in turn (the thread numbered {@code i} the one at
 * {@code (i / n) mod} the candidates' number), and each comes back once its own is a candidate again.
 * <p>
 * A thread that keeps to one replica gets the same pooled connection at each read (HikariCP and Agroal lend a thread
 * the connection it gave back last), and so the same server session, whose caches stay warm: on servers that share
 * their cores, reads spread this way cost less CPU than reads that go to each replica in turn. Weights are not used.
 * Per read: one look-up of the thread's number (a {@link ThreadLocal} of this balancer, set at the thread's first
 * read), nothing shared between threads written, nothing allocated.
 */
final class ThreadAffinityBalancer implements LoadBalancer {

    private final ReplicaView[] replicas;
    /** Per replica: its place among the replicas of its tier, and how many its tier has. */
    private final int[] rank;
    private final int[] tierSize;
    /** The calling thread's number (a test's own key). */
    private final LongSupplier key;
    /** How many threads have read through this balancer: the next thread's number. */
    private final AtomicLong arrivals = new AtomicLong();
    /** Each thread's number, from its first read (not static: one per balancer, so per replica set). */
    private final ThreadLocal<long[]> number = ThreadLocal.withInitial(() -> new long[] {arrivals.getAndIncrement()});

    /** @param replicas every replica of the set, in configuration order (none: the candidates alone decide) */
    ThreadAffinityBalancer(List<? extends ReplicaView> replicas) {
        this(replicas, null);
    }

    /** @param key the calling thread's number, or null: the order of the threads' first reads */
    ThreadAffinityBalancer(List<? extends ReplicaView> replicas, LongSupplier key) {
        this.replicas = replicas.toArray(new ReplicaView[0]);
        this.rank = new int[this.replicas.length];
        this.tierSize = new int[this.replicas.length];
        for (int i = 0; i < this.replicas.length; i++) {
            for (int j = 0; j < this.replicas.length; j++) {
                if (this.replicas[j].tier() == this.replicas[i].tier()) {
                    tierSize[i]++;
                    if (j < i) {
                        rank[i]++;
                    }
                }
            }
        }
        this.key = key != null ? key : () -> number.get()[0];
    }

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        long k = key.getAsLong();
        int n = candidates.size();
        int size = 0;   // how many replicas the candidates' tier has, once one of the set is met
        for (int i = 0; i < n; i++) {
            ReplicaView candidate = candidates.get(i);
            for (int j = 0; j < replicas.length; j++) {
                if (replicas[j] == candidate) {
                    if (rank[j] == Math.floorMod(k, tierSize[j])) {
                        return candidate;   // its own
                    }
                    size = tierSize[j];
                    break;
                }
            }
        }
        // its own is left out: the threads of that replica take the candidates in turn (without the set's list, the
        // threads do)
        return candidates.get((int) Math.floorMod(size == 0 ? k : Math.floorDiv(k, size), (long) n));
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
