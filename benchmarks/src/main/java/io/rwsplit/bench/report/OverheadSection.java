package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU-time comparison of {@link io.rwsplit.bench.overhead.CpuOverhead} ({@code overhead.tsv}) as a table: one row
 * per operation and compared stack. A full run writes it in parts 1b (H2) and 2b (cluster) of
 * {@code docs/benchmarks.md}; {@code scripts/bench.sh overhead --page} rewrites part 1b alone, between its markers, with
 * its own command and date.
 * <p>
 * Usage: {@code OverheadSection <results dir> <markdown file>}
 */
public final class OverheadSection {

    static final String BEGIN = "<!-- overhead-h2:begin -->";
    static final String END = "<!-- overhead-h2:end -->";
    static final String TITLE = "1b. CPU time per operation on H2 (calling thread)";

    private OverheadSection() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: OverheadSection <results dir> <markdown file>");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        Map<String, String> meta = ResultFiles.meta(dir.resolve("meta.properties"));
        StringBuilder md = new StringBuilder();
        md.append(BEGIN).append('\n').append("## ").append(TITLE).append("\n\n");
        md.append(ResultFiles.generatedBy(meta));
        if (!table(md, dir, "h2", meta, "load_cpu_h2")) {
            md.append("_Not run: no result file._\n\n");
        }
        md.append(END);
        Path page = Path.of(args[1]);
        if (!Files.readString(page, StandardCharsets.UTF_8).contains(BEGIN)) {
            // a page from before the markers: inserting the section would leave the old 1b beside it
            throw new IllegalStateException(page + " has no " + BEGIN + " marker around its section 1b: run the full"
                    + " scripts/bench.sh once, which writes it");
        }
        ResultFiles.rewrite(page, md.toString(), BEGIN, END);
    }

    /** Appends the description and the table of {@code target}'s rows of {@code dir/overhead.tsv}; false when it has none. */
    static boolean table(StringBuilder md, Path dir, String target, Map<String, String> meta, String loadKey)
            throws IOException {
        md.append("""
                The calling thread's CPU time per operation (`ThreadMXBean#getCurrentThreadCpuTime`), the baseline \
                and the compared stack open side by side in one JVM and run in interleaved batches (baseline, \
                stack, stack, baseline, ...), each pair of batches giving one ratio. This figure holds on a busy \
                machine where wall time does not: a thread waiting for a core accrues no CPU time, and both sides \
                of a pair share the JIT state, the heap and the load of the same seconds, so the load mostly \
                cancels in the ratio; JMH's wall-time error bars, by contrast, grow with every other process. The \
                *CPU ratio* is the median of the per-pair ratios, the *spread* their quartiles; *halves* are the \
                medians of the first and the second half of the pairs (when they differ by more than about 1%, \
                the figure has not settled: re-run with more pairs, `BENCH_CPU_OPTS="--pairs 200"`). *Wall ratio* \
                is the median of the per-pair wall-time ratios of the same batches. *Allocation* is the calling \
                thread's allocated bytes per operation (`com.sun.management.ThreadMXBean`), the median batch of \
                each side, so background threads (the replica monitor) are not counted. Every stack uses HikariCP \
                for its primary. Where the comparison ran in several JVMs (*forks*: the JIT compiles each \
                differently, and a figure moves by several per cent from one to the next), the row is the fork with \
                the median CPU ratio, and *forks* lists every fork's. Pass rule: hibernate-rwsplit's CPU ratio at most 1.03 over plain Hibernate on \
                H2, and on the cluster at or below the ratio of every peer that routes (each proven to route \
                before it is measured); at most +150 B/op for find-by-id and the JPQL query, +300 B/op for the \
                write transaction.

                """);
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
            return false;
        }
        md.append("Options `").append(meta.getOrDefault("cpu_options", "?")).append("`, load average at the start of this part: ")
                .append(meta.getOrDefault(loadKey, "?")).append(".\n\n");
        // one row per comparison: with several forks, the fork of the median CPU ratio, every fork's ratio beside it
        Map<String, List<String[]>> forks = new LinkedHashMap<>();
        for (String[] f : rows) {
            forks.computeIfAbsent(f[1] + "\t" + f[2] + "\t" + f[3], k -> new ArrayList<>()).add(f);
        }
        md.append("| operation | stack | baseline | CPU ratio | spread (quartiles) | halves | wall ratio | CPU µs/op (baseline, stack) | allocation B/op (baseline, stack, difference) | pairs × batch | forks |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (List<String[]> comparison : forks.values()) {
            List<String[]> byRatio = new ArrayList<>(comparison);
            byRatio.sort(Comparator.comparingDouble(r -> Double.parseDouble(r[6])));
            String[] f = byRatio.get((byRatio.size() - 1) / 2);
            List<String> ratios = new ArrayList<>();
            for (String[] fork : comparison) {
                ratios.add(two(fork[6]));
            }
            double baseBytes = Double.parseDouble(f[14]);
            double bytes = Double.parseDouble(f[15]);
            md.append("| ").append(Report.OPERATION_LABELS.getOrDefault(f[1], f[1]))
                    .append(" | ").append(Report.label(f[3])).append(" | ").append(Report.label(f[2]))
                    .append(" | **").append(two(f[6])).append("** | ").append(two(f[7])).append("-").append(two(f[8]))
                    .append(" | ").append(Report.three(Double.parseDouble(f[9]))).append(" / ")
                    .append(Report.three(Double.parseDouble(f[10])))
                    .append(" | ").append(two(f[11]))
                    .append(" | ").append(two(f[12])).append(", ").append(two(f[13]))
                    .append(" | ").append(String.format("%.0f, %.0f, %+.0f", baseBytes, bytes, bytes - baseBytes))
                    .append(" | ").append(f[4]).append(" × ").append(f[5])
                    .append(" | ").append(comparison.size() == 1 ? "1" : comparison.size() + ": " + String.join(", ", ratios))
                    .append(" |\n");
        }
        md.append('\n');
        return true;
    }

    private static String two(String value) {
        return String.format("%.2f", Double.parseDouble(value));
    }
}
