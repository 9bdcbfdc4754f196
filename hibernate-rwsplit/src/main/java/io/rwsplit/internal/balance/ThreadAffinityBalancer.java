package io.rwsplit.internal.balance;

import java.util.List;
import java.util.function.LongSupplier;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/**
 * Each thread keeps to one replica, its own: among the replicas of a tier, in configuration order, the thread whose id
 * is {@code i} has the one at {@code floor(frac(i × 0.618…) × n)} ({@code n} the tier's replicas; 0.618… is the golden
 * ratio's fractional part, as in Fibonacci hashing). It reads there whenever that replica is a candidate, also when a
 * read's candidates are filtered (the replicas caught up to what it must see, the ones within a staleness bound) or
 * one of the others is down; when its own is left out, it reads on the candidate the same mapping gives among the
 * candidates, and comes back once its own is a candidate again.
 * <p>
 * The multiples of the golden ratio spread over [0, 1) as evenly as any sequence can: the threads of a pool, made one
 * after another, spread evenly (a few more on one replica than on another at most), and so do threads whose ids have
 * a stride (threads made in pairs, a helper thread per request), which {@code i mod n} would put all on one replica.
 * <p>
 * A thread that keeps to one replica gets the same pooled connection at each read (HikariCP lends a thread the
 * connection it gave back last), and so the same server session, whose caches stay warm: on servers that share their
 * cores, reads spread this way cost less CPU than reads that go to each replica in turn. Weights are not used. No
 * state but what the configuration fixes: nothing shared between threads is written, nothing is allocated.
 */
final class ThreadAffinityBalancer implements LoadBalancer {

    private final ReplicaView[] replicas;
    /** Per replica: its place among the replicas of its tier, and how many its tier has. */
    private final int[] rank;
    private final int[] tierSize;
    /** The calling thread's key (its id; a test's own). */
    private final LongSupplier key;

    /** @param replicas every replica of the set, in configuration order (none: the candidates alone decide) */
    ThreadAffinityBalancer(List<? extends ReplicaView> replicas) {
        this(replicas, ThreadAffinityBalancer::threadId);
    }

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
        this.key = key;
    }

    @SuppressWarnings("deprecation")   // Thread#threadId() is Java 19's name for it
    private static long threadId() {
        return Thread.currentThread().getId();
    }

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        long mixed = mix(key.getAsLong());
        for (int i = 0, n = candidates.size(); i < n; i++) {
            ReplicaView candidate = candidates.get(i);
            for (int j = 0; j < replicas.length; j++) {
                if (replicas[j] == candidate) {
                    if (rank[j] == place(mixed, tierSize[j])) {
                        return candidate;   // its own
                    }
                    break;
                }
            }
        }
        return candidates.get(place(mixed, candidates.size()));   // its own is left out
    }

    /** {@code frac(key × 0.618…)} in 64-bit fixed point: the key times 2^64 divided by the golden ratio, wrapped. */
    static long mix(long key) {
        return key * 0x9E3779B97F4A7C15L;
    }

    /** Which of {@code n} equal parts of [0, 1) the fixed-point fraction {@code mixed} falls in. */
    static int place(long mixed, int n) {
        return (int) (((mixed >>> 32) * n) >>> 32);
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
