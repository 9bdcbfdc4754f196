package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.rwsplit.bench.report.ResultFiles.Tsv;

/**
 * Rewrites one section of {@code docs/benchmarks.md} from the results of {@code scripts/bench.sh pattern --page}
 * and leaves the rest of the page as it is: the section between {@link #BEGIN} and {@link #END}, or, when the page
 * has no such markers yet, a new one inserted right before its {@code ## Reproduce} heading. The results directory
 * holds {@code meta.properties} (command, date, machine and load average, written by bench.sh) and the workload
 * runner's rows, {@code workload.tsv} for MariaDB and {@code workload-postgres.tsv} for PostgreSQL: plain
 * Hibernate ({@code PRIMARY_ONLY}) and hibernate-rwsplit with its defaults ({@code UNIT_DEFAULT}) in rounds of one run
 * each, the one that runs first rotating; when
 * {@code bench.sh pattern --with-pairs} ran, {@code workload-pairs.tsv} and {@code workload-postgres-pairs.tsv}: the
 * write-then-read pairs alone on each; and, when {@code --pg-delay=D} ran, {@code workload-postgres-delay.tsv}: the
 * same on PostgreSQL with both standbys {@code D} behind (these rows are left out when their file is not there); when
 * {@code --with-ceiling} ran, {@code ceiling.tsv} and {@code ceiling-postgres.tsv}: the pattern in raw JDBC with its reads
 * on the primary, a replica and the replicas, a table of their own under the first ({@link CeilingTable}). Where the
 * runner could read the processes' CPU from {@code /proc}, a table of the CPU per operation of the benchmark's JVM,
 * the primary and the replicas follows the main one.
 * <p>
 * Usage: {@code PatternSection <results dir> <markdown file>}
 */
public final class PatternSection {

    static final String BEGIN = "<!-- pattern:begin -->";
    static final String END = "<!-- pattern:end -->";
    static final String TITLE = "## Write then read back, under write load (both databases)";

    private static final String PLAIN = "PRIMARY_ONLY";
    private static final String RWSPLIT = "UNIT_DEFAULT";
    /** hibernate-rwsplit with {@code consistency=eventual} ({@code bench.sh pattern --with-eventual}): rows of their own. */
    private static final String EVENTUAL = "EVENTUAL";
    private static final String ROUND_ROBIN = "ROUND_ROBIN";
    /** The stacks' letters in the text's account of the rounds' order. */
    private static final Map<String, String> LETTERS = Map.of(PLAIN, "P", RWSPLIT, "R", EVENTUAL, "E", ROUND_ROBIN, "T");
    private static final String PATTERN_SUFFIX = "; pattern ";

    /**
     * A database's row: its name on the page, its result file and the meta key with the reason it did not run; without
     * such a key ({@code null}) the row is left out, not shown as "not run", when the file is missing.
     */
    private record Source(String database, String file, String skippedKey) {
    }

    private static final List<Source> SOURCES = List.of(
            new Source("MariaDB", "workload.tsv", "skipped_mariadb"),
            new Source("MariaDB", "workload-pairs.tsv", null),
            new Source("PostgreSQL", "workload-postgres.tsv", "skipped_postgres"),
            new Source("PostgreSQL", "workload-postgres-pairs.tsv", null),
            new Source("PostgreSQL", "workload-postgres-delay.tsv", null));

    private final Path dir;
    private final Map<String, String> meta;
    private final StringBuilder md = new StringBuilder();
    /** Runs that did not end with status {@code ok}, listed under the table. */
    private final List<String> notes = new ArrayList<>();

    private PatternSection(Path dir, Map<String, String> meta) {
        this.dir = dir;
        this.meta = meta;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: PatternSection <results dir> <markdown file>");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        Path page = Path.of(args[1]);
        String section = new PatternSection(dir, ResultFiles.meta(dir.resolve("meta.properties"))).write();
        ResultFiles.rewrite(page, section, BEGIN, END);
    }

    private String meta(String key) {
        return meta.getOrDefault(key, "?");
    }

    /** The section, from {@link #BEGIN} to {@link #END} (no line break after it). */
    String write() throws IOException {
        md.append(BEGIN).append('\n').append(TITLE).append("\n\n");
        md.append(ResultFiles.generatedBy(meta));
        md.append("""
                Each user repeats: write its own row in one `EntityManager`, read it back in a new one (a \
                read-after-write, *stale* when it shows an older counter than the user committed), then read N \
                random rows, each in a new `EntityManager` (`write-readback-N`; `write-readback-0`, the pairs alone, is \
                `--pairs`, or `--with-pairs` for rows of their own). \
                Plain Hibernate (`PRIMARY_ONLY`, every statement on the primary) and hibernate-rwsplit with its \
                defaults (`UNIT_DEFAULT`, only `hibernate.rwsplit.replicas` set) run in one JVM in rounds, each \
                stack once a round (the pairs column counts the rounds), after each ran once unrecorded (the JIT), \
                with no injected lag unless the database \
                column names one (`scripts/pg-cluster.sh delay`, `recovery_min_apply_delay`, on both standbys: \
                reads that cannot wait that long go to the primary). The order rotates: round *r* starts with the \
                *r*-th stack, plain Hibernate included, the others following in their order (this run's rounds, \
                P for plain Hibernate, R for the default, E and T below: %s), so that over as many rounds as there \
                are stacks each runs once in every place and what the order favours (the machine warming, the \
                standbys' caches, the load the runs before leave) is no one stack's. The *ratio* of a pair \
                is hibernate-rwsplit's throughput divided by that of the plain Hibernate run of the same round; \
                both runs of a pair share the JVM and the load of the same minutes, so the median of the pairs is \
                the figure to compare, not the absolute ops/s. The primary and the standbys run on this machine's \
                %s cores together with the benchmark, so the standbys add no capacity here: a read moved to a \
                standby competes for the same cores as the primary's work. Rows marked `consistency=eventual` \
                (`--with-eventual`, E in the rounds) read everything from the replicas and wait for nothing: \
                they show what reading from the replicas costs with hibernate-rwsplit but without its \
                read-your-writes, and the gap between them and the default's row is what the default's \
                read-your-writes costs; their ratio is to the plain Hibernate run of their round. The default \
                load balancer is `thread_affinity` (each user's thread keeps to one replica); rows marked \
                `load_balancer=round_robin` (`--with-round-robin`, T in the rounds) are the default with each read \
                on the next replica in turn instead; their ratio too is to the plain Hibernate run of their round.

                """.formatted(roundOrders(), meta("nproc")));
        md.append("| database | pattern | users × s per run | pairs | ratio per pair (hibernate-rwsplit / plain Hibernate) "
                + "| median ratio | plain Hibernate ops/s (median) | hibernate-rwsplit ops/s (median) "
                + "| replica share of reads (hibernate-rwsplit) | stale reads / checked (hibernate-rwsplit) "
                + "| errors (plain Hibernate, hibernate-rwsplit) |\n");
        md.append("|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (Source source : SOURCES) {
            Path file = dir.resolve(source.file());
            if (Files.isRegularFile(file)) {
                Tsv tsv = ResultFiles.tsv(file);
                notes(source.database() + lag(tsv), tsv);
                row(source.database() + lag(tsv), tsv, RWSPLIT);
                if (tsv.rows().stream().anyMatch(r -> tsv.field(r, "mode").equals(EVENTUAL))) {
                    row(source.database() + lag(tsv) + ", `consistency=eventual` (every read on a replica, none waits)",
                            tsv, EVENTUAL);
                }
                if (tsv.rows().stream().anyMatch(r -> tsv.field(r, "mode").equals(ROUND_ROBIN))) {
                    row(source.database() + lag(tsv) + ", `load_balancer=round_robin` (each read on the next replica)",
                            tsv, ROUND_ROBIN);
                }
            }
            else if (source.skippedKey() != null) {
                md.append("| ").append(source.database()).append(" | not run (")
                        .append(meta.getOrDefault(source.skippedKey(), "no " + source.file())).append(") | | | | | | | | | |\n");
            }
        }
        if (!notes.isEmpty()) {
            md.append('\n');
            for (String note : notes) {
                md.append("- ").append(note).append('\n');
            }
        }
        String cpu = cpuTable();
        if (!cpu.isEmpty()) {
            md.append('\n').append(cpu);
        }
        String ceiling = CeilingTable.write(dir);
        if (!ceiling.isEmpty()) {
            md.append('\n').append(ceiling);
        }
        md.append('\n').append(END);
        return md.toString();
    }

    /**
     * The order of the runs in each round of the first result file there is, a stack by its letter
     * ({@code P R A, R A P, A P R}); {@code ?} when there is none.
     */
    private String roundOrders() throws IOException {
        for (Source source : SOURCES) {
            Path file = dir.resolve(source.file());
            if (Files.isRegularFile(file)) {
                return String.join(", ", rounds(ResultFiles.tsv(file)).stream()
                        .map(round -> String.join(" ", round.keySet().stream().map(m -> LETTERS.getOrDefault(m, m))
                                .toList()))
                        .toList());
            }
        }
        return "?";
    }

    /** The runs of one result file that did not end with status {@code ok}, for the notes under the table. */
    private void notes(String database, Tsv tsv) {
        List<String[]> rows = tsv.rows();
        for (int i = 0; i < rows.size(); i++) {
            String status = tsv.field(rows.get(i), "status");
            if (!status.equals("ok")) {
                notes.add(String.format("%s, run %d of %d (%s): %s", database, i + 1, rows.size(),
                        tsv.field(rows.get(i), "mode"), status));
            }
        }
    }

    /**
     * One database and one hibernate-rwsplit mode ({@code UNIT_DEFAULT}, {@code EVENTUAL} or {@code ROUND_ROBIN}): each measured run of it
     * paired with the measured PRIMARY_ONLY run of its round.
     */
    private void row(String database, Tsv tsv, String mode) {
        List<String[]> rows = tsv.rows();
        List<String[]> plain = new ArrayList<>();
        List<String[]> rwsplit = new ArrayList<>();
        pairs(tsv, mode, plain, rwsplit);
        md.append("| ").append(database)
                .append(" | ").append(distinct(rows, row -> pattern(tsv.field(row, "settings"))))
                .append(" | ").append(distinct(rows, row -> tsv.field(row, "users") + " × " + tsv.field(row, "seconds")));
        if (plain.isEmpty()) {
            md.append(" | 0: no round with a measured ").append(PLAIN).append(" run and a measured ").append(mode)
                    .append(" run | | | | | | | |\n");
            return;
        }
        List<Double> ratios = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < plain.size(); i++) {
            double ratio = opsPerSecond(tsv, rwsplit.get(i)) / opsPerSecond(tsv, plain.get(i));
            ratios.add(ratio);
            shown.add(String.format("%.3f", ratio));
        }
        long reads = sum(tsv, rwsplit, "reads");
        md.append(" | ").append(plain.size())
                .append(" | ").append(String.join(", ", shown))
                .append(" | **").append(String.format("%.3f", median(ratios))).append("**")
                .append(" | ").append(String.format("%.1f", median(plain.stream().map(p -> opsPerSecond(tsv, p)).toList())))
                .append(" | ").append(String.format("%.1f", median(rwsplit.stream().map(r -> opsPerSecond(tsv, r)).toList())))
                .append(" | ").append(reads == 0 ? "-" : String.format("%.1f%%", 100.0 * sum(tsv, rwsplit, "replica_reads") / reads))
                .append(" | ").append(sum(tsv, rwsplit, "stale_reads")).append(" / ").append(sum(tsv, rwsplit, "checked_reads"))
                .append(" | ").append(sum(tsv, plain, "errors")).append(", ").append(sum(tsv, rwsplit, "errors"))
                .append(" |\n");
    }

    /**
     * Each measured run of {@code mode} paired with the measured PRIMARY_ONLY run of its round, whichever ran first,
     * into {@code plain} and {@code rwsplit} (the same index is a pair).
     */
    private static void pairs(Tsv tsv, String mode, List<String[]> plain, List<String[]> rwsplit) {
        for (Map<String, String[]> round : rounds(tsv)) {
            String[] p = round.get(PLAIN);
            String[] r = round.get(mode);
            if (p != null && r != null && measured(tsv, p) && measured(tsv, r)) {
                plain.add(p);
                rwsplit.add(r);
            }
        }
    }

    /**
     * The runs of a result file by round, each round's by mode in the order they ran. A round runs each mode once (the
     * runner's {@code --rounds}, the mode that runs first rotating), so a mode that comes again begins the next round;
     * this holds for the files written before the order rotated (P R P R ...) too.
     */
    private static List<Map<String, String[]>> rounds(Tsv tsv) {
        List<Map<String, String[]>> rounds = new ArrayList<>();
        Map<String, String[]> round = null;
        for (String[] r : tsv.rows()) {
            String mode = tsv.field(r, "mode");
            if (round == null || round.containsKey(mode)) {
                round = new LinkedHashMap<>();
                rounds.add(round);
            }
            round.put(mode, r);
        }
        return rounds;
    }

    static final String[] CPU_COLUMNS = {"client_cpu_us_per_op", "primary_cpu_us_per_op", "replicas_cpu_us_per_op"};

    /**
     * The CPU each operation cost, per process, from the runs' CPU columns (the runner reads them from {@code /proc}):
     * empty when no result file has them.
     */
    private String cpuTable() throws IOException {
        StringBuilder t = new StringBuilder();
        for (Source source : SOURCES) {
            Path file = dir.resolve(source.file());
            if (!Files.isRegularFile(file)) {
                continue;
            }
            Tsv tsv = ResultFiles.tsv(file);
            if (!tsv.header().contains(CPU_COLUMNS[0])) {
                continue;
            }
            List<String[]> allPlain = tsv.rows().stream()
                    .filter(r -> tsv.field(r, "mode").equals(PLAIN) && cpuMeasured(tsv, r)).toList();
            if (allPlain.isEmpty()) {
                continue;
            }
            String database = source.database() + lag(tsv) + ", " + pattern(tsv.field(allPlain.get(0), "settings"));
            cpuRow(t, database, "plain Hibernate", tsv, allPlain, null);
            for (String mode : List.of(RWSPLIT, EVENTUAL, ROUND_ROBIN)) {
                List<String[]> plain = new ArrayList<>();
                List<String[]> rwsplit = new ArrayList<>();
                pairs(tsv, mode, plain, rwsplit);
                for (int i = plain.size() - 1; i >= 0; i--) {
                    if (!cpuMeasured(tsv, plain.get(i)) || !cpuMeasured(tsv, rwsplit.get(i))) {
                        plain.remove(i);
                        rwsplit.remove(i);
                    }
                }
                if (!plain.isEmpty()) {
                    cpuRow(t, database, mode.equals(EVENTUAL) ? "hibernate-rwsplit, `consistency=eventual`"
                            : mode.equals(ROUND_ROBIN) ? "hibernate-rwsplit, `load_balancer=round_robin`"
                            : "hibernate-rwsplit", tsv, rwsplit, plain);
                }
            }
        }
        if (t.length() == 0) {
            return "";
        }
        return """
                CPU time per operation, by process, in the same runs (read from `/proc` at the start and the end of \
                each measured run: the benchmark's JVM, the primary's server, the replicas' servers; a PostgreSQL \
                server is its postmaster with its children, backends included), the median of the runs of each \
                stack (the total is the median of the runs' totals, not the sum of the medians beside it). Where the cores are saturated (*cores busy* near %s), throughput is the cores over this \
                total: the total per operation is what each stack costs the machine, process by process. *Total / \
                plain* is the median over the pairs of the total's ratio to the plain Hibernate run of the pair \
                (above 1: more CPU per operation).

                | database, pattern | stack | client JVM µs/op | primary µs/op | replicas µs/op | total µs/op | total / plain | cores busy |
                |---|---|---:|---:|---:|---:|---:|---:|
                """.formatted(meta("nproc")) + t;
    }

    static void cpuRow(StringBuilder t, String database, String stack, Tsv tsv, List<String[]> runs,
                               List<String[]> plainOfPairs) {
        double[] medians = new double[CPU_COLUMNS.length];
        for (int c = 0; c < CPU_COLUMNS.length; c++) {
            String column = CPU_COLUMNS[c];
            medians[c] = median(runs.stream().map(r -> Double.parseDouble(tsv.field(r, column))).toList());
        }
        String ratio = "";
        if (plainOfPairs != null) {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                ratios.add(cpuTotal(tsv, runs.get(i)) / cpuTotal(tsv, plainOfPairs.get(i)));
            }
            ratio = String.format("**%.3f**", median(ratios));
        }
        t.append("| ").append(database).append(" | ").append(stack)
                .append(String.format(" | %.1f | %.1f | %.1f | %.1f | %s | %.2f |%n", medians[0], medians[1], medians[2],
                        median(runs.stream().map(r -> cpuTotal(tsv, r)).toList()), ratio,
                        median(runs.stream().map(r -> Double.parseDouble(tsv.field(r, "cores_busy"))).toList())));
    }

    /** A run whose CPU the runner measured ("-" where it could not, or where the run counted no operation). */
    private static boolean cpuMeasured(Tsv tsv, String[] row) {
        return measured(tsv, row) && !tsv.field(row, CPU_COLUMNS[0]).equals("-");
    }

    private static double cpuTotal(Tsv tsv, String[] row) {
        double total = 0;
        for (String column : CPU_COLUMNS) {
            total += Double.parseDouble(tsv.field(row, column));
        }
        return total;
    }

    /** A run that measured something: the runner leaves the figures empty when the stack failed to open or prove. */
    private static boolean measured(Tsv tsv, String[] row) {
        return !tsv.field(row, "ops").isEmpty();
    }

    private static double opsPerSecond(Tsv tsv, String[] row) {
        return Double.parseDouble(tsv.field(row, "ops_per_s"));
    }

    private static long sum(Tsv tsv, List<String[]> rows, String column) {
        return rows.stream().mapToLong(row -> Long.parseLong(tsv.field(row, column))).sum();
    }

    /** ", lag: ..." when the rows were run with injected lag (their {@code lag} column), else nothing. */
    private static String lag(Tsv tsv) {
        String lag = distinct(tsv.rows(), row -> tsv.field(row, "lag"));
        return lag.isEmpty() || lag.equals("none") ? "" : ", lag: " + lag;
    }

    /** The pattern the runner names at the end of a row's settings ({@code mix}, the default, is not named). */
    private static String pattern(String settings) {
        int at = settings.lastIndexOf(PATTERN_SUFFIX);
        return at < 0 ? "mix" : settings.substring(at + PATTERN_SUFFIX.length());
    }

    private static String distinct(List<String[]> rows, Function<String[], String> value) {
        return String.join(", ", rows.stream().map(value).distinct().toList());
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
