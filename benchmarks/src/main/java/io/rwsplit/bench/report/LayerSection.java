package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rwsplit.bench.report.ResultFiles.Tsv;

/**
 * Rewrites the section "What the routing layer alone costs" of {@code docs/benchmarks.md} from the results of
 * {@code scripts/bench.sh layer --page}: {@code layer.tsv}, one row per operation and JVM fork of
 * {@code io.rwsplit.bench.layer.RoutingLayerCost}; an operation's figure is the median of its forks' medians, shown
 * with the forks' range.
 * <p>
 * Usage: {@code LayerSection <results dir> <markdown file>}
 */
public final class LayerSection {

    static final String BEGIN = "<!-- layer:begin -->";
    static final String END = "<!-- layer:end -->";
    static final String TITLE = "## What the routing layer alone costs";

    private static final Map<String, String> WHAT = Map.of(
            "find", "a find by id's JDBC work outside a transaction: a logical connection opened for a new session, "
                    + "one prepared read (one parameter, one row read), everything closed",
            "statement", "the prepared read alone, on a logical connection that stays open",
            "session", "a logical connection opened for a new session and closed, nothing run (plain: nothing)");

    private LayerSection() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: LayerSection <results dir> <markdown file>");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        String section = write(dir, ResultFiles.meta(dir.resolve("meta.properties")));
        ResultFiles.rewrite(Path.of(args[1]), section, BEGIN, END);
    }

    static String write(Path dir, Map<String, String> meta) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append(BEGIN).append('\n').append(TITLE).append("\n\n");
        md.append(ResultFiles.generatedBy(meta));
        md.append("""
                hibernate-rwsplit's routing connection by itself, below Hibernate and above a JDBC driver that does \
                nothing (dynamic proxies that answer at once): the router at its defaults (read-your-writes at the \
                unit scope, the default balancer, the stale-read audit and the query-shape statistics on) over HikariCP pools \
                for the primary and the replica, against the same JDBC calls on a HikariCP pool over the same driver. \
                The calling thread's CPU time per operation, both in interleaved batches in one JVM (each pair of \
                batches gives one difference, a fork's figure is their median); several JVM forks, because the JIT \
                compiles each differently. Every fork first proves that its routed reads reached the replica. It \
                says how much of part 1's find-by-id overhead is the routing connection itself; the rest is the \
                Hibernate glue (the per-session routing state, the session listener) and what the extra work does \
                to the code around it. **Pass rule: none of its own**; the find-by-id CPU goal of part 1 bounds it.

                """);
        Path file = dir.resolve("layer.tsv");
        if (!Files.isRegularFile(file)) {
            md.append("Not run (no ").append(file.getFileName()).append(").\n\n").append(END);
            return md.toString();
        }
        Tsv tsv = ResultFiles.tsv(file);
        Map<String, List<String[]>> byOperation = new LinkedHashMap<>();
        for (String[] row : tsv.rows()) {
            byOperation.computeIfAbsent(tsv.field(row, "operation"), k -> new ArrayList<>()).add(row);
        }
        md.append("| operation | plain JDBC (HikariCP, no-op driver) | hibernate-rwsplit: CPU time more | forks' range "
                + "| forks × pairs of batches | allocation: plain, more |\n");
        md.append("|---|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<String, List<String[]>> operation : byOperation.entrySet()) {
            List<String[]> rows = operation.getValue();
            List<Double> over = column(tsv, rows, "over_ns");
            md.append("| ").append(operation.getKey()).append(": ")
                    .append(WHAT.getOrDefault(operation.getKey(), "(unknown operation)"))
                    .append(" | ").append(String.format("%.0f ns", PatternSection.median(column(tsv, rows, "plain_ns"))))
                    .append(" | ").append(String.format("**%+.0f ns**", PatternSection.median(over)))
                    .append(" | ").append(String.format("%.0f to %.0f ns", min(over), max(over)))
                    .append(" | ").append(rows.size()).append(" × ").append(tsv.field(rows.get(0), "pairs"))
                    .append(" | ").append(String.format("%.0f B, %+.0f B", PatternSection.median(column(tsv, rows, "plain_bytes")),
                            PatternSection.median(column(tsv, rows, "over_bytes"))))
                    .append(" |\n");
        }
        md.append('\n').append(END);
        return md.toString();
    }

    private static List<Double> column(Tsv tsv, List<String[]> rows, String name) {
        return rows.stream().map(r -> Double.parseDouble(tsv.field(r, name))).toList();
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
