package io.rwsplit.bench.overhead;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import jakarta.persistence.EntityManager;

import io.rwsplit.bench.BenchItem;
import io.rwsplit.bench.Database;
import io.rwsplit.bench.Replication;
import io.rwsplit.bench.RoutingProof;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * The cost of a connection path as the calling thread's CPU time per operation, which other processes on a
 * busy machine do not inflate the way they inflate wall time (a thread that waits for a core accrues no CPU
 * time). A baseline and a candidate stack are open side by side in one JVM and run the same operation in
 * interleaved batches (baseline, candidate, candidate, baseline, ...: the first of each pair alternates), so
 * that both see the same JIT state, heap and machine load; each pair gives one ratio of CPU time per
 * operation, and the figure is the median of those ratios with its quartiles as the spread. Allocation is the
 * calling thread's allocated bytes per operation ({@code com.sun.management.ThreadMXBean}), the median batch
 * of each side; wall time per operation is reported beside it, as the
 * median of the per-pair wall-time ratios.
 * <p>
 * Usage: {@code CpuOverhead [--target h2|cluster] [--port 3307] [--pairs 100] [--batch-ms 50] [--warmup-s 8]
 * [--operations findById,jpqlQuery,writeTransaction] [--candidate-settings key=value,...] [--out overhead.tsv]}. {@code h2} compares
 * hibernate-rwsplit (b) with plain Hibernate (a) on in-memory H2; {@code cluster} does the same on the
 * scripts/cluster.sh MariaDB cluster (the client-side cost: the server's work is in neither thread's CPU
 * time) and compares every routing peer that works through Spring read-only transactions, and
 * hibernate-rwsplit used the same way, with plain Hibernate in Spring transactions (a'). Every stack uses
 * HikariCP for its primary, and every routing stack first proves that its reads reach a replica
 * ({@link RoutingProof}). Each comparison prints one line
 * {@code overhead findById cpu-ratio 1.02 (spread 0.98-1.05) alloc +120 B/op ...} and, with {@code --out},
 * appends one TSV row for the report. {@code --candidate-settings} adds settings to every candidate (not the
 * baseline), for taking a step out of what a stack costs, e.g. {@code hibernate.rwsplit.audit_sample=0}; such rows
 * are for study, printed only (refused with {@code --out}, whose rows make the page).
 */
public final class CpuOverhead {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** One measured comparison's result. */
    record Result(String target, String operation, Variant baseline, Variant candidate, int pairs, int batch,
                  double cpuMedian, double cpuLow, double cpuHigh, double firstHalf, double secondHalf,
                  double wallMedian, double baselineCpuMicros, double candidateCpuMicros,
                  double baselineBytes, double candidateBytes) {

        String line() {
            return String.format(Locale.ROOT,
                    "overhead %s cpu-ratio %.2f (spread %.2f-%.2f) alloc %+.0f B/op   wall-ratio %.2f; halves %.3f/%.3f; "
                            + "%.2f vs %.2f us CPU/op; %s: %s vs %s, %d pairs of %d",
                    operation, cpuMedian, cpuLow, cpuHigh, candidateBytes - baselineBytes, wallMedian, firstHalf,
                    secondHalf, baselineCpuMicros, candidateCpuMicros, target, candidate, baseline, pairs, batch);
        }

        String tsv() {
            return String.join("\t", target, operation, baseline.name(), candidate.name(), String.valueOf(pairs),
                    String.valueOf(batch), f(cpuMedian), f(cpuLow), f(cpuHigh), f(firstHalf), f(secondHalf),
                    f(wallMedian), f(baselineCpuMicros), f(candidateCpuMicros), f(baselineBytes), f(candidateBytes));
        }

        private static String f(double value) {
            return String.format(Locale.ROOT, "%.4f", value);
        }
    }

    /** The TSV header of {@link Result#tsv()}. */
    static final String TSV_HEADER = "target\toperation\tbaseline\tcandidate\tpairs\tbatch\tcpu_median\tcpu_q1\tcpu_q3"
            + "\tcpu_first_half\tcpu_second_half\twall_median\tbaseline_cpu_us\tcandidate_cpu_us\tbaseline_bytes"
            + "\tcandidate_bytes";

    private CpuOverhead() {
    }

    public static void main(String[] args) throws IOException {
        Locale.setDefault(Locale.ROOT);
        String target = "h2";
        int port = 3307;
        int pairs = 100;
        long batchNanos = 50_000_000L;
        long warmupNanos = 8_000_000_000L;
        List<String> operations = List.of("findById", "jpqlQuery", "writeTransaction");
        Path out = null;
        Map<String, String> candidateSettings = Map.of();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--target" -> target = value;
                case "--port" -> port = Integer.parseInt(value);
                case "--pairs" -> pairs = Integer.parseInt(value);
                case "--batch-ms" -> batchNanos = Long.parseLong(value) * 1_000_000L;
                case "--warmup-s" -> warmupNanos = Long.parseLong(value) * 1_000_000_000L;
                case "--operations" -> operations = List.of(value.split(","));
                case "--out" -> out = Path.of(value);
                case "--candidate-settings" -> candidateSettings = settings(value);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
            i++;
        }
        if (!candidateSettings.isEmpty() && out != null) {
            // the report cannot tell such rows from the defaults' (the page's): printed only
            throw new IllegalArgumentException("--candidate-settings is for study: not with --out, whose rows make the page");
        }
        if (pairs < 20) {
            throw new IllegalArgumentException("--pairs must be at least 20, was " + pairs);
        }
        if (!THREADS.isCurrentThreadCpuTimeSupported() || !THREADS.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM measures no thread CPU time or allocation");
        }
        THREADS.setThreadCpuTimeEnabled(true);
        THREADS.setThreadAllocatedMemoryEnabled(true);
        List<Result> results = new ArrayList<>();
        switch (target) {
            case "h2" -> {
                Database plainDb = Database.h2("cpu_plain");
                Database rwsplitDb = Database.h2("cpu_rwsplit");
                compare("h2", Variant.PLAIN, plainDb, List.of(Variant.RWSPLIT), rwsplitDb, candidateSettings, operations,
                        pairs, batchNanos, warmupNanos, results);
            }
            case "cluster" -> {
                Database db = Database.cluster(port, 2);
                compare("cluster", Variant.PLAIN, db, List.of(Variant.RWSPLIT), db, candidateSettings, operations, pairs,
                        batchNanos, warmupNanos, results);
                compare("cluster", Variant.PLAIN_TX, db, List.of(Variant.RWSPLIT_TX, Variant.SPRING_LAZY,
                                Variant.MYSQL_REPLICATION, Variant.AWS_SRW), db, candidateSettings, operations, pairs,
                        batchNanos, warmupNanos, results);
            }
            default -> throw new IllegalArgumentException("--target must be h2 or cluster, was '" + target + "'");
        }
        if (out != null) {
            io.rwsplit.bench.TsvRows.append(out, TSV_HEADER, results.stream().map(Result::tsv).toList());
        }
    }

    /** {@code key=value,key=value} as a map; a pair without '=' is refused, naming it. */
    private static Map<String, String> settings(String list) {
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        for (String pair : list.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--candidate-settings takes key=value pairs separated by commas, was '"
                        + pair + "'");
            }
            settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return settings;
    }

    /**
     * Opens the baseline and each candidate on their databases (a fresh schema each; on the cluster the
     * candidates share the baseline's database) and measures every operation for each candidate.
     */
    private static void compare(String target, Variant baseline, Database baselineDb, List<Variant> candidates,
                                Database candidateDb, Map<String, String> candidateSettings, List<String> operations,
                                int pairs, long batchNanos,
                                long warmupNanos, List<Result> results) {
        Schema.recreate(baselineDb);
        if (candidateDb != baselineDb) {
            Schema.recreate(candidateDb);
        }
        if (baselineDb.mariadb()) {
            Replication.awaitReplicas(baselineDb);
        }
        try (Stack base = Stack.open(baseline, baselineDb, Map.of())) {
            RoutingProof.verify(target, base, baselineDb);
            for (Variant candidate : candidates) {
                try (Stack stack = Stack.open(candidate, candidateDb, candidateSettings)) {
                    RoutingProof.verify(target, stack, candidateDb);
                    for (String operation : operations) {
                        Result result = measure(target, operation, base, stack, pairs, batchNanos, warmupNanos);
                        System.out.println(result.line());
                        results.add(result);
                    }
                }
            }
        }
    }

    /** One operation as an application runs it (its own unit of work); every call returns something non-null. */
    static final class Operation {
        private final String name;
        private long next;

        Operation(String name) {
            this.name = name;
        }

        private long nextId() {
            next = next % Schema.ROWS + 1;
            return next;
        }

        Object run(Stack stack) {
            return switch (name) {
                case "findById" -> {
                    long id = nextId();
                    yield stack.read(em -> em.find(BenchItem.class, id));
                }
                case "jpqlQuery" -> {
                    long from = nextId() % (Schema.ROWS - Operations.QUERY_ROWS) + 1;
                    yield stack.read(em -> query(em, from));
                }
                case "writeTransaction" -> stack.write(WRITE);
                default -> throw new IllegalArgumentException("unknown operation '" + name
                        + "' (findById, jpqlQuery, writeTransaction)");
            };
        }

        private static List<BenchItem> query(EntityManager em, long from) {
            return em.createQuery("select i from BenchItem i where i.id between :from and :to order by i.id", BenchItem.class)
                    .setParameter("from", from)
                    .setParameter("to", from + Operations.QUERY_ROWS - 1)
                    .getResultList();
        }

        private static final Function<EntityManager, Long> WRITE = em -> {
            BenchItem item = new BenchItem("written");
            em.persist(item);
            return item.getId();
        };
    }

    /** A batch's CPU time, wall time and allocation. */
    private record Batch(long cpuNanos, long wallNanos, long bytes) {
    }

    private static Batch batch(Operation operation, Stack stack, int count) {
        long thread = Thread.currentThread().getId();
        long bytes = THREADS.getThreadAllocatedBytes(thread);
        long wall = System.nanoTime();
        long cpu = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < count; i++) {
            if (operation.run(stack) == null) {
                throw new IllegalStateException(operation.name + " returned nothing on " + stack.variant());
            }
        }
        long cpuEnd = THREADS.getCurrentThreadCpuTime();
        long wallEnd = System.nanoTime();
        long bytesEnd = THREADS.getThreadAllocatedBytes(thread);
        return new Batch(cpuEnd - cpu, wallEnd - wall, bytesEnd - bytes);
    }

    private static Result measure(String target, String name, Stack base, Stack candidate, int pairs, long batchNanos,
                                  long warmupNanos) {
        Operation operation = new Operation(name);
        // warm-up: both sides alternately in small batches until the time is spent; sizes the batches
        long spent = 0;
        long cpu = 0;
        long ops = 0;
        while (spent < warmupNanos) {
            Batch a = batch(operation, base, 200);
            Batch b = batch(operation, candidate, 200);
            spent += a.wallNanos + b.wallNanos;
            cpu += a.cpuNanos;
            ops += 200;
        }
        int size = (int) Math.max(50, Math.min(1_000_000, batchNanos * ops / Math.max(1, cpu)));
        double[] cpuRatios = new double[pairs];
        double[] wallRatios = new double[pairs];
        double[] baseBytes = new double[pairs];
        double[] candidateBytes = new double[pairs];
        double[] baseCpu = new double[pairs];
        double[] candidateCpu = new double[pairs];
        for (int pair = 0; pair < pairs; pair++) {
            Batch a;
            Batch b;
            if ((pair & 1) == 0) {
                a = batch(operation, base, size);
                b = batch(operation, candidate, size);
            }
            else {
                b = batch(operation, candidate, size);
                a = batch(operation, base, size);
            }
            cpuRatios[pair] = (double) b.cpuNanos / a.cpuNanos;
            wallRatios[pair] = (double) b.wallNanos / a.wallNanos;
            baseCpu[pair] = a.cpuNanos / 1000.0 / size;
            candidateCpu[pair] = b.cpuNanos / 1000.0 / size;
            baseBytes[pair] = (double) a.bytes / size;
            candidateBytes[pair] = (double) b.bytes / size;
        }
        int half = pairs / 2;
        double firstHalf = quantile(Arrays.copyOfRange(cpuRatios, 0, half), 0.5);
        double secondHalf = quantile(Arrays.copyOfRange(cpuRatios, half, pairs), 0.5);
        return new Result(target, name, base.variant(), candidate.variant(), pairs, size,
                quantile(cpuRatios, 0.5), quantile(cpuRatios, 0.25), quantile(cpuRatios, 0.75), firstHalf, secondHalf,
                quantile(wallRatios, 0.5), quantile(baseCpu, 0.5), quantile(candidateCpu, 0.5),
                quantile(baseBytes, 0.5), quantile(candidateBytes, 0.5));
    }

    /** The {@code q} quantile (linear interpolation) of {@code values}; sorts a copy. */
    static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double position = q * (sorted.length - 1);
        int low = (int) Math.floor(position);
        int high = Math.min(sorted.length - 1, low + 1);
        return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
    }
}
