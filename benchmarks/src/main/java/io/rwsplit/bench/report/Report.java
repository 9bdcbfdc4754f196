package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.rwsplit.bench.Variant;

/**
 * Writes {@code docs/benchmarks.md} (and its charts) from the result files that scripts/bench.sh leaves in
 * one directory: {@code meta.properties}, {@code h2.csv}, {@code cluster.csv} (JMH CSV, with {@code -prof gc}
 * rows), {@code proofs.tsv} (the routing proofs, see {@link io.rwsplit.bench.RoutingProof}) and
 * {@code workload.tsv} (the workload runner). A missing file becomes a line saying the part was not run, with
 * the reason bench.sh recorded.
 * <p>
 * Usage: {@code Report <results dir> <markdown file> <png file> [notes file]}; the cluster chart is written
 * next to the png file with {@code -cluster} added to its name; the notes file (Markdown written by hand
 * about a run) is appended when it exists.
 */
public final class Report {

    /** What each variant routes, for the table of variants. */
    private static final Map<String, String> ROUTES = new LinkedHashMap<>();

    static {
        ROUTES.put("PLAIN", "nothing: every statement on the primary pool (the baseline)");
        ROUTES.put("PLAIN_TX", "nothing; each operation in a Spring transaction, reads read-only (the baseline of the Spring peers)");
        ROUTES.put("RWSPLIT", "each statement: reads outside a transaction to a replica (round robin over both on the "
                + "cluster), writes, locks and flushes to the primary");
        ROUTES.put("RWSPLIT_TX", "a read-only transaction (Spring calls `setReadOnly(true)`) to one replica as a whole; "
                + "read-write transactions to the primary");
        ROUTES.put("SPRING_LAZY", "a read-only transaction to `setReadOnlyDataSource` (a pool on replica1), everything "
                + "else to the primary pool; decided when the transaction's first statement needs a connection");
        ROUTES.put("SHARDINGSPHERE", "each statement: reads outside a transaction to the read data source (one replica), "
                + "writes and reads in transactions to the write data source (`transactionalReadQueryStrategy: PRIMARY`)");
        ROUTES.put("MYSQL_REPLICATION", "the connection switches to a replica (load-balanced over both) while "
                + "`setReadOnly(true)`, i.e. for read-only transactions; to the primary otherwise");
        ROUTES.put("AWS_SRW", "the connection switches to the reader endpoint (replica1) while `setReadOnly(true)`, "
                + "to the writer endpoint otherwise; no topology; role verification off (the wrapper verifies roles "
                + "only on RDS/Aurora)");
    }

    /** The variants that route reads and are not hibernate-rwsplit: the peers its goal is measured against. */
    private static final List<String> ROUTING_PEERS = List.of("SPRING_LAZY", "SHARDINGSPHERE", "MYSQL_REPLICATION", "AWS_SRW");

    private static final Map<String, String> OPERATION_LABELS = Map.of(
            "findById", "find-by-id",
            "jpqlQuery", "JPQL query (10 rows)",
            "writeTransaction", "write transaction (persist + commit)");

    private static final String ALLOCATION = "gc.alloc.rate.norm";

    private final Path dir;
    private final Map<String, String> meta;
    private final StringBuilder md = new StringBuilder();

    private Report(Path dir, Map<String, String> meta) {
        this.dir = dir;
        this.meta = meta;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3 && args.length != 4) {
            throw new IllegalArgumentException("usage: Report <results dir> <markdown file> <png file> [notes file]");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        Report report = new Report(dir, meta(dir.resolve("meta.properties")));
        Path png = Path.of(args[2]);
        report.write(png);
        if (args.length == 4 && Files.isRegularFile(Path.of(args[3]))) {
            report.md.append('\n').append(Files.readString(Path.of(args[3]), StandardCharsets.UTF_8));
        }
        Files.writeString(Path.of(args[1]), report.md.toString(), StandardCharsets.UTF_8);
    }

    private static Map<String, String> meta(Path file) throws IOException {
        Map<String, String> meta = new LinkedHashMap<>();
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    meta.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        return meta;
    }

    private String meta(String key) {
        return meta.getOrDefault(key, "?");
    }

    static String label(String variant) {
        try {
            return Variant.valueOf(variant).label();
        }
        catch (IllegalArgumentException e) {
            return variant;
        }
    }

    private void write(Path png) throws IOException {
        md.append("# Benchmarks\n\n");
        md.append("Generated by `").append(meta("command")).append("` on ").append(meta("date")).append(".\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| machine | `nproc` = ").append(meta("nproc")).append(", ").append(meta("cpu")).append(" |\n");
        md.append("| Java | ").append(meta("java")).append(" |\n");
        md.append("| load average (1, 5, 15 min) | before: ").append(meta("load_before"))
                .append("; after: ").append(meta("load_after")).append(" |\n");
        md.append("| JMH options | `").append(meta("jmh_options")).append("` |\n\n");
        loadWarning();
        md.append("""
                How to read the JMH tables: average time per operation (lower is better), the error is JMH's \
                99.9% confidence half-width; *ratio* is the variant's time divided by (a)'s time **from the same \
                run**, its error combines both half-widths in quadrature (an approximation). Other processes \
                only ever slow an iteration down, so on a shared machine the *best iteration* of each variant is \
                the least load-sensitive estimate of its own cost; the ratio of best iterations is shown next to \
                the ratio of means. *B/op* is the allocation per operation (`-prof gc`, `gc.alloc.rate.norm`), \
                which load does not disturb. Every operation is its own unit of work, as a request would be: \
                (a), (b) and (d) open a new `EntityManager` and read outside a transaction (the write in a \
                resource-local transaction); (a'), (b'), (c), (e) and (f) run each operation through a Spring \
                `TransactionTemplate` over `JpaTransactionManager` (`HibernateJpaDialect`, \
                `hibernate.connection.handling_mode=DELAYED_ACQUISITION_AND_HOLD` as Spring's \
                `HibernateJpaVendorAdapter` sets it) with the shared `EntityManager` proxy that \
                `@PersistenceContext` and Spring Data use, reads in read-only transactions: Spring then calls \
                `Connection#setReadOnly(true)`, the only signal (c), (e) and (f) route by.

                """);

        Map<String, Map<String, String>> proofs = proofs();
        md.append("## Variants: what they route, and the proof\n\n");
        md.append("""
                Before a variant is measured, its set-up proves where its reads go, through the same path the \
                benchmark uses, and fails (so no figure is reported) when a read is served by the wrong side: \
                20 consecutive reads. On H2 the "replica" is a second in-memory database seeded like the primary \
                except for the rows' names (`repl-N` instead of `item-N`), so the row a `find` returns shows the \
                database. On the cluster each read is a `find` followed by `select @@server_id`; for \
                hibernate-rwsplit, which routes each statement on its own, the session's statistics must also show \
                both statements on a replica.

                """);
        md.append("| variant | routes | proof on H2 | proof on the cluster |\n|---|---|---|---|\n");
        for (Map.Entry<String, String> routes : ROUTES.entrySet()) {
            String v = routes.getKey();
            md.append("| ").append(label(v)).append(" | ").append(routes.getValue())
                    .append(" | ").append(proofs.getOrDefault("h2", Map.of()).getOrDefault(v, "-"))
                    .append(" | ").append(proofs.getOrDefault("cluster", Map.of()).getOrDefault(v, "-"))
                    .append(" |\n");
        }
        md.append('\n');

        md.append("## 1. Overhead, H2 in memory\n\n");
        md.append("""
                The primary and the replica are in-memory H2 databases in the benchmark's JVM, so the differences \
                to (a) are the cost of the connection path and of the transaction handling alone. (c) is \
                `LazyConnectionDataSourceProxy` over the primary pool with `setReadOnlyDataSource` (the replica \
                pool). (d) is ShardingSphere-JDBC read/write splitting (one write and one read data source), given \
                to Hibernate as its `DataSource`.

                """);
        Optional<JmhCsv> h2 = JmhCsv.read(dir.resolve("h2.csv"));
        if (h2.isPresent()) {
            overheadTable(h2.get());
            peerLines(h2.get(), false);
            targetLine(h2.get());
            Chart.write(h2.get(), OPERATION_LABELS, png, "H2 in memory");
            md.append("\n![H2 overhead ratios](").append(png.getFileName()).append(")\n\n");
        }
        else {
            notRun("h2");
        }
        cpuSection("h2", "1b. CPU time per operation on H2 (calling thread)", "load_cpu_h2");

        md.append("## 2. The same operations on the replicated MariaDB cluster (loopback)\n\n");
        md.append("""
                scripts/cluster.sh: one primary and two GTID replicas on 127.0.0.1, MariaDB Connector/J for every \
                variant but (e). (e) is mysql-connector-j's `jdbc:mysql:replication://primary,replica1,replica2/rwsplit` \
                URL on one HikariCP pool (`hibernate.dialect` set to MariaDB's, as Hibernate would otherwise take \
                the server for MySQL 5.5). (f) is the AWS Advanced JDBC Wrapper over MariaDB Connector/J, \
                `jdbc:aws-wrapper:mariadb://primary/rwsplit` on one HikariCP pool with `wrapperPlugins=srw`, \
                `srwWriteEndpoint` the primary, `srwReadEndpoint` replica1 and `verifyNewSrwConnections=false`.

                """);
        Optional<JmhCsv> cluster = JmhCsv.read(dir.resolve("cluster.csv"));
        if (cluster.isPresent()) {
            overheadTable(cluster.get());
            peerLines(cluster.get(), true);
            Path clusterPng = png.resolveSibling(png.getFileName().toString().replace(".png", "-cluster.png"));
            Chart.write(cluster.get(), OPERATION_LABELS, clusterPng, "MariaDB cluster, loopback");
            md.append("\n![cluster overhead ratios](").append(clusterPng.getFileName()).append(")\n\n");
        }
        else {
            notRun("cluster");
        }
        cpuSection("cluster", "2b. CPU time per operation on the cluster (client side, calling thread)", "load_cpu_cluster");

        md.append("## 3. Replicated workload\n\n");
        md.append("""
                Concurrent simulated users on the cluster, each operation its own unit of work: 20% writes (read \
                the user's own row and increment its counter in a transaction), 80% `find` by id, half of them of \
                the user's own row right after its writes (read-after-write: *stale* when the counter is older than \
                the user's last commit), half of a random row. The hibernate-rwsplit modes read outside a \
                transaction, except `RWSPLIT_SPRING_TX`; the peers read in Spring read-only transactions, as their \
                users must for them to route, and have no read-your-writes. Each cell runs a warm-up, then a fixed \
                measurement time. *Reads on replicas* counts the reads whose session's `RoutingStatistics` shows \
                the statement on a replica (hibernate-rwsplit only); *replica share of SELECTs* comes from the \
                servers: the `Com_select` counters of the primary and the replicas over the measurement (all \
                SELECTs, including the writes' reads on the primary and, for hibernate-rwsplit, its health probes \
                on the replicas; with every read on a replica it is about 80%). In the hibernate-rwsplit modes \
                whose settings say `RwSplit.scope per user`, each `EntityManager` is given \
                `RwSplit.scope(em, "user-N")`, so a user's reads honour its writes of earlier requests where the \
                level asks for it; `UNIT_DEFAULT` and `RWSPLIT_SPRING_TX` name no scope, as an application that \
                only sets the replicas property. The mode's settings are passed to the persistence unit unchanged. Each mode's routing is proven as above before the no-lag cell (not in the lag \
                cells, where hibernate-rwsplit may send reads to the primary on purpose). *Read-after-write p99* \
                is the p99 of the reads of the user's own row. Lag (ii) is `scripts/cluster.sh delay 1 1` \
                (replica1 applies the primary's transactions one second late, `MASTER_DELAY`); lag (iii) delays \
                both replicas so, and the hibernate-rwsplit modes run with `max_lag=0` (shown in the settings) so \
                that the lagging replicas stay in rotation and consistency, not replica health, decides each read.

                """);
        Path workload = dir.resolve("workload.tsv");
        if (Files.isRegularFile(workload)) {
            List<String[]> rows = workloadRows(workload);
            workloadTable(rows);
            staleLine(rows);
        }
        else {
            notRun("workload");
        }
        postgresWorkload();
        if (cluster.isPresent()) {
            goalLine(cluster.get(), Files.isRegularFile(workload) ? workloadRows(workload) : List.of());
        }
        md.append("## Reproduce\n\n```\n").append(meta("command")).append("\n```\n\n");
        md.append("""
                `scripts/bench.sh` builds the `benchmarks` module (profile `bench`, never part of `mvn verify`), \
                runs JMH from `benchmarks/target/benchmarks.jar`, starts the cluster on \
                `BENCH_CLUSTER_PORT` (default 3307) unless it is running, runs the workload with and without \
                lag, and rewrites this page. Options and environment variables are listed by `scripts/bench.sh --help`.
                """);
    }

    /**
     * The CPU-time comparison of {@code target} from {@code overhead.tsv} (see
     * {@link io.rwsplit.bench.overhead.CpuOverhead}): one row per operation and compared stack.
     */
    private void cpuSection(String target, String title, String loadKey) throws IOException {
        md.append("## ").append(title).append("\n\n");
        md.append("""
                The calling thread's CPU time per operation (`ThreadMXBean#getCurrentThreadCpuTime`), the baseline \
                and the compared stack open side by side in one JVM and run in interleaved batches (baseline, \
                stack, stack, baseline, ...), each pair of batches giving one ratio. This figure holds on a busy \
                machine where wall time does not: a thread waiting for a core accrues no CPU time, and both sides \
                of a pair share the JIT state, the heap and the load of the same seconds, so the load mostly \
                cancels in the ratio; JMH's wall-time error bars, by contrast, grow with every other process. The \
                *CPU ratio* is the median of the per-pair ratios, the *spread* their quartiles; *halves* are the \
                medians of the first and the second half of the pairs (when they differ by more than about 1%%, \
                the figure has not settled: re-run with more pairs, `BENCH_CPU_OPTS="--pairs 200"`). *Wall ratio* \
                is the median of the per-pair wall-time ratios of the same batches. *Allocation* is the calling \
                thread's allocated bytes per operation (`com.sun.management.ThreadMXBean`), the median batch of \
                each side, so background threads (the replica monitor) are not counted. Every stack uses HikariCP \
                for its primary. Pass rule: hibernate-rwsplit's CPU ratio at most 1.03 over plain Hibernate on \
                H2, and on the cluster at or below the ratio of every peer that routes (each proven to route \
                before it is measured); at most +150 B/op for find-by-id and the JPQL query, +300 B/op for the \
                write transaction.

                """.formatted());
        Path file = dir.resolve("overhead.tsv");
        List<String[]> rows = new ArrayList<>();
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t");
                if (f.length >= 16 && f[0].equals(target)) {
                    rows.add(f);
                }
            }
        }
        if (rows.isEmpty()) {
            notRun(target.equals("h2") ? "cpu_h2" : "cluster");
            return;
        }
        md.append("Options `").append(meta("cpu_options")).append("`, load average at the start of this part: ")
                .append(meta(loadKey)).append(".\n\n");
        md.append("| operation | stack | baseline | CPU ratio | spread (quartiles) | halves | wall ratio | CPU µs/op (baseline, stack) | allocation B/op (baseline, stack, difference) | pairs × batch |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String[] f : rows) {
            double baseBytes = Double.parseDouble(f[14]);
            double bytes = Double.parseDouble(f[15]);
            md.append("| ").append(OPERATION_LABELS.getOrDefault(f[1], f[1]))
                    .append(" | ").append(label(f[3])).append(" | ").append(label(f[2]))
                    .append(" | **").append(two(f[6])).append("** | ").append(two(f[7])).append("-").append(two(f[8]))
                    .append(" | ").append(three(Double.parseDouble(f[9]))).append(" / ").append(three(Double.parseDouble(f[10])))
                    .append(" | ").append(two(f[11]))
                    .append(" | ").append(two(f[12])).append(", ").append(two(f[13]))
                    .append(" | ").append(String.format("%.0f, %.0f, %+.0f", baseBytes, bytes, bytes - baseBytes))
                    .append(" | ").append(f[4]).append(" × ").append(f[5]).append(" |\n");
        }
        md.append('\n');
    }

    private static String two(String value) {
        return String.format("%.2f", Double.parseDouble(value));
    }

    /** The same workload on the scripts/pg-cluster.sh PostgreSQL cluster (primary + 2 hot standbys), when it ran. */
    private void postgresWorkload() throws IOException {
        md.append("## 3c. Replicated workload on PostgreSQL\n\n");
        md.append("""
                The same workload on `scripts/pg-cluster.sh`: a PostgreSQL primary and two hot standbys (streaming \
                replication, pgjdbc). Read-your-writes uses WAL positions (LSNs); lag (ii) is \
                `scripts/pg-cluster.sh delay 1 1` (`recovery_min_apply_delay`).

                """);
        Path workload = dir.resolve("workload-postgres.tsv");
        if (Files.isRegularFile(workload)) {
            workloadTable(workloadRows(workload));
        }
        else {
            notRun("workload_postgres");
        }
    }

    /** Says so when the machine was busier than its cores, as then every number is noisy. */
    private void loadWarning() {
        try {
            double cores = Double.parseDouble(meta("nproc"));
            double before = Double.parseDouble(meta("load_before").split(" ")[0]);
            double after = Double.parseDouble(meta("load_after").split(" ")[0]);
            if (Math.max(before, after) > cores) {
                md.append(String.format("**Measured under load**: the 1-minute load average was %.1f before and %.1f after the run "
                        + "on %.0f cores (other builds and tests shared the machine). Absolute numbers are noisy; compare "
                        + "ratios within one run, and re-run on a quiet machine before drawing fine conclusions.%n%n",
                        before, after, cores));
            }
        }
        catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            // no load figures recorded: nothing to warn about
        }
    }

    private void notRun(String part) {
        md.append("_Not run: ").append(meta.getOrDefault("skipped_" + part, "no result file")).append("._\n\n");
    }

    /** part -> variant -> proof, the first proof of each (the workload proves again per mode). */
    private Map<String, Map<String, String>> proofs() throws IOException {
        Map<String, Map<String, String>> proofs = new LinkedHashMap<>();
        Path file = dir.resolve("proofs.tsv");
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", 3);
                if (f.length == 3) {
                    proofs.computeIfAbsent(f[0], p -> new LinkedHashMap<>()).putIfAbsent(f[1], f[2]);
                }
            }
        }
        return proofs;
    }

    private void overheadTable(JmhCsv csv) {
        md.append("| operation | variant | µs/op (mean) | ± | ratio to (a) | ± | best iteration µs/op | ratio of best iterations | B/op |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String benchmark : csv.benchmarks()) {
            Optional<JmhCsv.Row> base = csv.find(benchmark, "", "PLAIN");
            for (String variant : ordered(csv.variants())) {
                Optional<JmhCsv.Row> row = csv.find(benchmark, "", variant);
                if (row.isEmpty()) {
                    continue;
                }
                JmhCsv.Row r = row.get();
                md.append("| ").append(OPERATION_LABELS.getOrDefault(benchmark, benchmark))
                        .append(" | ").append(label(variant))
                        .append(" | ").append(fmt(r.score())).append(" | ").append(fmt(r.error()));
                if (base.isPresent()) {
                    double[] ratio = ratio(r, base.get());
                    md.append(" | ").append(String.format("%.3f", ratio[0])).append(" | ").append(three(ratio[1]))
                            .append(" | ").append(fmt(r.best())).append(" | ").append(three(r.best() / base.get().best()));
                }
                else {
                    md.append(" | | | ").append(fmt(r.best())).append(" | ");
                }
                md.append(" | ").append(csv.find(benchmark, ALLOCATION, variant).map(a -> bytes(a.score())).orElse("-"));
                md.append(" |\n");
            }
        }
        md.append('\n');
    }

    /** For each read: hibernate-rwsplit, outside and inside read-only transactions, against the fastest routing peer. */
    private void peerLines(JmhCsv csv, boolean goal) {
        for (String benchmark : List.of("findById", "jpqlQuery")) {
            Optional<JmhCsv.Row> fastest = fastestPeer(csv, benchmark);
            if (fastest.isEmpty()) {
                continue;
            }
            JmhCsv.Row peer = fastest.get();
            md.append("- ").append(OPERATION_LABELS.get(benchmark)).append(": fastest routing peer (best iteration) ")
                    .append(label(peer.variant())).append(String.format(" at %s µs", fmt(peer.best())));
            for (String module : List.of("RWSPLIT", "RWSPLIT_TX")) {
                Optional<JmhCsv.Row> b = csv.find(benchmark, "", module);
                if (b.isPresent()) {
                    md.append(String.format("; %s: %.3f× of it by best iteration, %.3f× by mean",
                            label(module), b.get().best() / peer.best(), b.get().score() / peer.score()));
                }
            }
            md.append(".\n");
        }
        md.append('\n');
    }

    private static Optional<JmhCsv.Row> fastestPeer(JmhCsv csv, String benchmark) {
        JmhCsv.Row fastest = null;
        for (String peer : ROUTING_PEERS) {
            Optional<JmhCsv.Row> row = csv.find(benchmark, "", peer);
            if (row.isPresent() && !Double.isNaN(row.get().best()) && (fastest == null || row.get().best() < fastest.best())) {
                fastest = row.get();
            }
        }
        return Optional.ofNullable(fastest);
    }

    private void targetLine(JmhCsv csv) {
        Optional<JmhCsv.Row> a = csv.find("findById", "", "PLAIN");
        Optional<JmhCsv.Row> b = csv.find("findById", "", "RWSPLIT");
        if (a.isEmpty() || b.isEmpty()) {
            return;
        }
        double[] ratio = ratio(b.get(), a.get());
        double best = b.get().best() / a.get().best();
        String verdict = ratio[0] <= 1.05 && best <= 1.05 ? "met"
                : ratio[0] <= 1.05 || best <= 1.05 ? "met by one estimate, not the other"
                : ratio[0] - ratio[1] <= 1.05 ? "not shown: 1.05 lies within the error bars" : "missed";
        md.append(String.format("Target \"(b) within 5%% of (a) on find-by-id\": mean ratio %.3f ± %s, ratio of best iterations %.3f: **%s**.",
                ratio[0], three(ratio[1]), best, verdict));
        Optional<JmhCsv.Row> ga = csv.find("findById", ALLOCATION, "PLAIN");
        Optional<JmhCsv.Row> gb = csv.find("findById", ALLOCATION, "RWSPLIT");
        if (ga.isPresent() && gb.isPresent()) {
            md.append(String.format(" Allocation: (b) − (a) = %s B per find-by-id (one routed statement, including the "
                    + "per-session routing state of a new `EntityManager`).", bytes(gb.get().score() - ga.get().score())));
        }
        md.append("\n\n");
    }

    private static List<String[]> workloadRows(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    private void workloadTable(List<String[]> rows) {
        md.append("| lag | mode | settings | users | ops/s | read p50 ms | read p99 ms | write p50 ms | write p99 ms | reads on replicas | replica share of SELECTs | stale reads / checked | read-after-write p99 ms | errors | status |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (String[] f : rows) {
            boolean measured = !f[5].isEmpty();
            md.append("| ").append(f[0]).append(" | ").append(f[1]).append(" | `").append(f[2]).append("` | ").append(f[3]);
            if (measured) {
                long reads = Long.parseLong(f[11]);
                long replicaReads = Long.parseLong(f[12]);
                boolean module = !List.of("PRIMARY_ONLY", "SPRING_LAZY", "MYSQL_REPLICATION", "AWS_SRW").contains(f[1]);
                md.append(" | ").append(f[6])
                        .append(" | ").append(ms(f[7])).append(" | ").append(ms(f[8]))
                        .append(" | ").append(ms(f[9])).append(" | ").append(ms(f[10]))
                        .append(" | ").append(!module || reads == 0 ? "-" : String.format("%.1f%%", 100.0 * replicaReads / reads))
                        .append(" | ").append(selectShare(f[17], f[18]))
                        .append(" | ").append(f[14]).append(" / ").append(f[13])
                        .append(" | ").append(ms(f[16]))
                        .append(" | ").append(f[15]);
            }
            else {
                md.append(" | | | | | | | | | | ");
            }
            md.append(" | ").append(f[19]).append(" |\n");
        }
        md.append('\n');
    }

    /** The replicas' share of the servers' SELECTs; "-" when none were counted (PostgreSQL rows hold "-"). */
    private static String selectShare(String primary, String replicas) {
        if (primary.equals("-") || replicas.equals("-")) {
            return "-";
        }
        long primarySelects = Long.parseLong(primary);
        long replicaSelects = Long.parseLong(replicas);
        return primarySelects + replicaSelects == 0 ? "-"
                : String.format("%.1f%%", 100.0 * replicaSelects / (primarySelects + replicaSelects));
    }

    /** Stale reads per mode in the lag cells, and which routing modes had none. */
    private void staleLine(List<String[]> rows) {
        Map<String, long[]> byMode = staleInLagCells(rows);
        if (byMode.isEmpty()) {
            return;
        }
        md.append("Stale reads in the lag cells ((ii) and (iii) added up), per mode that reads from replicas: ");
        List<String> parts = new ArrayList<>();
        byMode.forEach((mode, counts) -> parts.add(String.format("%s %d / %d", mode, counts[0], counts[1])));
        md.append(String.join("; ", parts)).append(".\n\n");
    }

    /** mode -> {stale, checked} over the lag cells, for modes other than the primary-only reference. */
    private static Map<String, long[]> staleInLagCells(List<String[]> rows) {
        Map<String, long[]> byMode = new LinkedHashMap<>();
        for (String[] f : rows) {
            if (f[0].startsWith("(i) ") || f[1].equals("PRIMARY_ONLY") || f[5].isEmpty()) {
                continue;
            }
            long[] counts = byMode.computeIfAbsent(f[1], m -> new long[2]);
            counts[0] += Long.parseLong(f[14]);
            counts[1] += Long.parseLong(f[13]);
        }
        return byMode;
    }

    /**
     * The goal this page measures: on the cluster, hibernate-rwsplit's find-by-id and JPQL read at most 1.00x of
     * the fastest routing peer (best-iteration ratio), and it is the only one with no stale read in the lag cells.
     */
    private void goalLine(JmhCsv cluster, List<String[]> workload) {
        md.append("### Goal\n\n");
        md.append("On the cluster, hibernate-rwsplit's find-by-id and JPQL read at most 1.00× of the fastest routing "
                + "peer (ratio of best iterations), and the only one with 0 stale reads in the lag cells.\n\n");
        for (String module : List.of("RWSPLIT", "RWSPLIT_TX")) {
            List<String> parts = new ArrayList<>();
            boolean met = true;
            boolean any = false;
            for (String benchmark : List.of("findById", "jpqlQuery")) {
                Optional<JmhCsv.Row> peer = fastestPeer(cluster, benchmark);
                Optional<JmhCsv.Row> b = cluster.find(benchmark, "", module);
                if (peer.isEmpty() || b.isEmpty()) {
                    continue;
                }
                any = true;
                double best = b.get().best() / peer.get().best();
                met &= best <= 1.0;
                parts.add(String.format("%s %.3f× of %s (mean %.3f×)", OPERATION_LABELS.get(benchmark), best,
                        label(peer.get().variant()).substring(0, 3), b.get().score() / peer.get().score()));
            }
            if (any) {
                md.append("- Speed, ").append(label(module)).append(": ").append(String.join(", ", parts))
                        .append(": **").append(met ? "met" : "missed").append("**.\n");
            }
        }
        Map<String, long[]> stale = staleInLagCells(workload);
        if (!stale.isEmpty()) {
            List<String> clean = new ArrayList<>();
            List<String> peersClean = new ArrayList<>();
            stale.forEach((mode, counts) -> {
                if (counts[0] == 0 && counts[1] > 0) {
                    clean.add(mode);
                    if (List.of("SPRING_LAZY", "MYSQL_REPLICATION", "AWS_SRW").contains(mode)) {
                        peersClean.add(mode);
                    }
                }
            });
            // hibernate-rwsplit with its default consistency, whatever else the mode varies
            List<String> defaults = new ArrayList<>();
            for (String mode : List.of("UNIT_DEFAULT", "RWSPLIT_DEFAULT", "RWSPLIT_SPRING_TX")) {
                if (stale.containsKey(mode)) {
                    defaults.add(mode);
                }
            }
            boolean moduleClean = !defaults.isEmpty() && clean.containsAll(defaults);
            md.append("- Stale reads: modes with 0 stale reads in the lag cells: ")
                    .append(clean.isEmpty() ? "none" : String.join(", ", clean))
                    .append(": **").append(moduleClean && peersClean.isEmpty() ? "met" : "missed")
                    .append("** (hibernate-rwsplit with its default consistency, ").append(String.join(", ", defaults))
                    .append(": ").append(moduleClean ? "none" : "some")
                    .append("; routing peers without stale reads: ").append(peersClean.isEmpty() ? "none" : String.join(", ", peersClean))
                    .append(").\n");
        }
        md.append('\n');
    }

    private static String three(double value) {
        return Double.isNaN(value) ? "-" : String.format("%.3f", value);
    }

    private static String bytes(double value) {
        return Double.isNaN(value) ? "-" : String.format("%.0f", value);
    }

    private static String ms(String micros) {
        return String.format("%.2f", Long.parseLong(micros) / 1000.0);
    }

    static List<String> ordered(List<String> variants) {
        List<String> ordered = new ArrayList<>();
        for (Variant known : Variant.values()) {
            if (variants.contains(known.name())) {
                ordered.add(known.name());
            }
        }
        for (String v : variants) {
            if (!ordered.contains(v)) {
                ordered.add(v);
            }
        }
        return ordered;
    }

    /** {@code x / base} and its error, combining the relative errors in quadrature. */
    static double[] ratio(JmhCsv.Row x, JmhCsv.Row base) {
        double r = x.score() / base.score();
        double ex = x.error() / x.score();
        double eb = base.error() / base.score();
        return new double[] {r, r * Math.sqrt(ex * ex + eb * eb)};
    }

    private static String fmt(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value >= 100 ? String.format("%.0f", value) : String.format("%.1f", value);
    }
}
