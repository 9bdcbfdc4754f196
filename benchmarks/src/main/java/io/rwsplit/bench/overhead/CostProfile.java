package io.rwsplit.bench.overhead;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

import io.rwsplit.bench.Database;
import io.rwsplit.bench.RoutingProof;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * The JVM a sampling profiler watches to tell where hibernate-rwsplit's CPU time goes in one operation: plain
 * Hibernate and hibernate-rwsplit on in-memory H2 (HikariCP on both sides), open side by side and run in interleaved
 * batches as in {@link CpuOverhead}, each side through a method of its own ({@link #baselineBatch},
 * {@link #routedBatch}; the warm-up through {@link #warmupBatch}, which neither side counts), so that every sampled
 * stack says which side it belongs to. It measures each side's CPU time
 * per operation (the calling thread's), and writes them to {@code cpu.properties} in the output directory; the
 * profiler's stacks ({@code scripts/bench.sh profile} attaches async-profiler and writes them beside it) are then
 * turned into a table by {@link io.rwsplit.bench.report.CostBreakdown}.
 * <p>
 * Usage: {@code CostProfile --operation findById|jpqlQuery|writeTransaction [--seconds 60] [--warmup-s 10] --out dir}
 */
public final class CostProfile {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Operations per batch: long enough that the switch between the sides is a small part of a batch. */
    private static final int BATCH = 2000;

    private CostProfile() {
    }

    public static void main(String[] args) throws IOException {
        Locale.setDefault(Locale.ROOT);
        String operationName = "findById";
        long seconds = 60;
        long warmupSeconds = 10;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--operation" -> operationName = value;
                case "--seconds" -> seconds = Long.parseLong(value);
                case "--warmup-s" -> warmupSeconds = Long.parseLong(value);
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
            i++;
        }
        if (out == null) {
            throw new IllegalArgumentException("--out is required");
        }
        THREADS.setThreadCpuTimeEnabled(true);
        Database plainDb = Database.h2("profile_plain");
        Database routedDb = Database.h2("profile_rwsplit");
        Schema.recreate(plainDb);
        Schema.recreate(routedDb);
        CpuOverhead.Operation operation = new CpuOverhead.Operation(operationName);
        try (Stack plain = Stack.open(Variant.PLAIN, plainDb, Map.of());
             Stack routed = Stack.open(Variant.RWSPLIT, routedDb, Map.of())) {
            RoutingProof.verify("h2", plain, plainDb);
            RoutingProof.verify("h2", routed, routedDb);
            long warmupEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
            while (System.nanoTime() < warmupEnd) {
                warmupBatch(operation, plain);
                warmupBatch(operation, routed);
            }
            long plainCpu = 0;
            long routedCpu = 0;
            long perSide = 0;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                plainCpu += baselineBatch(operation, plain);
                routedCpu += routedBatch(operation, routed);
                routedCpu += routedBatch(operation, routed);
                plainCpu += baselineBatch(operation, plain);
                perSide += 2L * BATCH;
            }
            double plainNanos = plainCpu / (double) perSide;
            double routedNanos = routedCpu / (double) perSide;
            Files.createDirectories(out);
            Files.writeString(out.resolve("cpu.properties"), String.format(Locale.ROOT,
                    "operation=%s%noperations_per_side=%d%nbaseline_cpu_ns=%.1f%nrouted_cpu_ns=%.1f%n",
                    operationName, perSide, plainNanos, routedNanos), StandardCharsets.UTF_8);
            System.out.printf("profile %s: plain Hibernate %.0f ns CPU/op, hibernate-rwsplit %.0f ns (%.3f), %d operations a side%n",
                    operationName, plainNanos, routedNanos, routedNanos / plainNanos, perSide);
        }
    }

    /**
     * A batch of either side's operations while the JIT warms up, in a method of its own: the profiler's samples of it
     * belong to neither side, so that the figures describe the compiled code alone.
     */
    static void warmupBatch(CpuOverhead.Operation operation, Stack stack) {
        for (int i = 0; i < BATCH; i++) {
            if (operation.run(stack) == null) {
                throw new IllegalStateException("the operation returned nothing on " + stack.variant());
            }
        }
    }

    /** A batch of plain Hibernate's operations: the calling thread's CPU time it took. */
    static long baselineBatch(CpuOverhead.Operation operation, Stack stack) {
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < BATCH; i++) {
            if (operation.run(stack) == null) {
                throw new IllegalStateException("the operation returned nothing on " + stack.variant());
            }
        }
        return THREADS.getCurrentThreadCpuTime() - start;
    }

    /** The same for hibernate-rwsplit, in a method of its own so that the profiler's stacks tell the sides apart. */
    static long routedBatch(CpuOverhead.Operation operation, Stack stack) {
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < BATCH; i++) {
            if (operation.run(stack) == null) {
                throw new IllegalStateException("the operation returned nothing on " + stack.variant());
            }
        }
        return THREADS.getCurrentThreadCpuTime() - start;
    }
}
