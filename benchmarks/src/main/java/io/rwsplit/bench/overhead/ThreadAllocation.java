package io.rwsplit.bench.overhead;

import java.lang.management.ManagementFactory;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import io.rwsplit.bench.BenchItem;
import io.rwsplit.bench.Database;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * Allocation per find-by-id on H2 in memory, counted on the calling thread only
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}): unlike JMH's {@code -prof gc}, which sums
 * every thread, it leaves out the replica monitor's background work, so it stays exact when a loaded machine
 * makes each operation slow. After a warm-up, ten rounds are measured; the least allocation of a round (the
 * JIT only ever removes allocations) and the best round's time per operation of each variant are printed.
 * <p>
 * Usage: {@code java -cp benchmarks.jar io.rwsplit.bench.overhead.ThreadAllocation [operations]}
 */
public final class ThreadAllocation {

    private ThreadAllocation() {
    }

    public static void main(String[] args) {
        int operations = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        double[] bytes = new double[2];
        double[] best = new double[2];
        Variant[] variants = {Variant.PLAIN, Variant.RWSPLIT};
        for (int v = 0; v < variants.length; v++) {
            Database db = Database.h2("alloc_" + variants[v].name().toLowerCase());
            Schema.recreate(db.primaryUrl(), db.user(), db.password(), false);
            try (Stack stack = Stack.open(variants[v], db, Map.of())) {
                EntityManagerFactory emf = stack.factory();
                run(emf, operations); // warm-up
                bytes[v] = Double.MAX_VALUE;
                best[v] = Double.MAX_VALUE;
                int perRound = operations / 10;
                for (int round = 0; round < 10; round++) {
                    long start = System.nanoTime();
                    long before = threads.getThreadAllocatedBytes(thread);
                    run(emf, perRound);
                    // the JIT only ever removes allocations (escape analysis): the least is the settled figure
                    bytes[v] = Math.min(bytes[v], (double) (threads.getThreadAllocatedBytes(thread) - before) / perRound);
                    best[v] = Math.min(best[v], (System.nanoTime() - start) / 1000.0 / perRound);
                }
            }
        }
        System.out.printf("find-by-id, %d operations per variant, calling thread only%n", operations);
        System.out.printf("PLAIN    %8.1f B/op   best round %6.2f us/op%n", bytes[0], best[0]);
        System.out.printf("RWSPLIT  %8.1f B/op   best round %6.2f us/op%n", bytes[1], best[1]);
        System.out.printf("difference %+.1f B/op, time ratio of best rounds %.3f%n", bytes[1] - bytes[0], best[1] / best[0]);
    }

    private static void run(EntityManagerFactory emf, int operations) {
        for (int i = 0; i < operations; i++) {
            EntityManager em = emf.createEntityManager();
            try {
                if (em.find(BenchItem.class, (long) (i % Schema.ROWS + 1)) == null) {
                    throw new IllegalStateException("row " + (i % Schema.ROWS + 1) + " missing");
                }
            }
            finally {
                em.close();
            }
        }
    }
}
