package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.rwsplit.bench.report.ResultFiles.Tsv;

/**
 * Rewrites the section "What the stale-read audit costs" of {@code docs/benchmarks.md} from the results of
 * {@code scripts/bench.sh pattern --audit --page}: hibernate-rwsplit with its defaults ({@code UNIT_DEFAULT}) run in
 * rounds, each round once per audit sample rate ({@code hibernate.rwsplit.audit_sample}, the workload runner's
 * {@code --alternate}), the rate that runs first rotating. A rate's ratio in a round is its throughput divided by that
 * of the round's run without the audit ({@code audit_sample=0}). {@code audit.tsv} holds MariaDB's rows,
 * {@code audit-postgres.tsv} PostgreSQL's; a missing file is a "not run" row.
 * <p>
 * Usage: {@code AuditSection <results dir> <markdown file>}
 */
public final class AuditSection {

    static final String BEGIN = "<!-- audit:begin -->";
    static final String END = "<!-- audit:end -->";
    static final String TITLE = "## What the stale-read audit costs";

    private static final String SAMPLE = "audit_sample=";
    /** The default sample rate: one replica read in this many is audited. */
    private static final int DEFAULT_SAMPLE = 100;

    private final Path dir;
    private final Map<String, String> meta;
    private final StringBuilder md = new StringBuilder();
    private final List<String> notes = new ArrayList<>();

    private AuditSection(Path dir, Map<String, String> meta) {
        this.dir = dir;
        this.meta = meta;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: AuditSection <results dir> <markdown file>");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        Path page = Path.of(args[1]);
        String section = new AuditSection(dir, ResultFiles.meta(dir.resolve("meta.properties"))).write();
        ResultFiles.rewrite(page, section, BEGIN, END);
    }

    String write() throws IOException {
        md.append(BEGIN).append('\n').append(TITLE).append("\n\n");
        md.append(ResultFiles.generatedBy(meta));
        md.append("""
                The workload of the section above (each user writes its own row, reads it back in a new \
                `EntityManager`, then reads random rows, each in a new one), hibernate-rwsplit with its defaults, \
                run in rounds: each round runs once without the audit (`audit_sample=0`), once at the default (one \
                replica read in %d audited) and once auditing every replica read (`audit_sample=1`), the rate that \
                runs first rotating from round to round, in one JVM after an unrecorded run. A rate's *ratio* is \
                its throughput divided by that of its round's run without the audit. One audit is one more query \
                on the replica connection that served the read, so its cost grows with the rate: at the default \
                it is too small for single runs to show on this machine (the spread of neighbouring runs is several \
                per cent), and *cost from every read* scales the cost of auditing every read down to the default: \
                (1 / median ratio at `audit_sample=1` − 1) / %d, the time one operation gains. \
                **Pass rule: the default costs at most 1 %% of throughput.**

                """.formatted(DEFAULT_SAMPLE, DEFAULT_SAMPLE));
        md.append("| database | pattern | users × s per run | rounds | `audit_sample` | ratio per round (to `audit_sample=0`) "
                + "| median ratio | ops/s (median) | stale reads / checked | errors |\n");
        md.append("|---|---|---|---:|---:|---|---:|---:|---:|---:|\n");
        List<String> costs = new ArrayList<>();
        for (String[] source : new String[][] {{"MariaDB", "audit.tsv", "skipped_mariadb"},
                {"PostgreSQL", "audit-postgres.tsv", "skipped_postgres"}}) {
            Path file = dir.resolve(source[1]);
            if (Files.isRegularFile(file)) {
                String cost = rows(source[0], ResultFiles.tsv(file));
                if (cost != null) {
                    costs.add(source[0] + ": " + cost);
                }
            }
            else {
                md.append("| ").append(source[0]).append(" | not run (")
                        .append(meta.getOrDefault(source[2], "no " + source[1])).append(") | | | | | | | | |\n");
            }
        }
        md.append('\n');
        for (String cost : costs) {
            md.append("- ").append(cost).append('\n');
        }
        for (String note : notes) {
            md.append("- ").append(note).append('\n');
        }
        md.append('\n').append(END);
        return md.toString();
    }

    /** One database's rows, one per sample rate; returns the line on the default's cost, or null. */
    private String rows(String database, Tsv tsv) {
        List<String[]> rows = tsv.rows();
        TreeMap<Integer, List<String[]>> bySample = new TreeMap<>();
        for (String[] row : rows) {
            if (!tsv.field(row, "status").equals("ok") || tsv.field(row, "ops").isEmpty()) {
                notes.add(database + ": a run did not measure (" + tsv.field(row, "status") + ")");
            }
            bySample.computeIfAbsent(sample(tsv.field(row, "settings")), k -> new ArrayList<>()).add(row);
        }
        int k = bySample.size();
        if (k < 2 || !bySample.containsKey(0) || rows.size() % k != 0) {
            notes.add(database + ": expected rounds of one run per rate, with audit_sample=0; found rates "
                    + bySample.keySet() + " in " + rows.size() + " runs");
            return null;
        }
        int rounds = rows.size() / k;
        Map<Integer, Double> medians = new TreeMap<>();
        for (Map.Entry<Integer, List<String[]>> rate : bySample.entrySet()) {
            List<Double> ratios = new ArrayList<>();
            List<String> shown = new ArrayList<>();
            List<Double> ops = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                List<String[]> cells = rows.subList(round * k, round * k + k);
                Double base = null;
                Double mine = null;
                for (String[] cell : cells) {
                    if (tsv.field(cell, "ops").isEmpty()) {
                        continue;
                    }
                    int s = sample(tsv.field(cell, "settings"));
                    double perSecond = Double.parseDouble(tsv.field(cell, "ops_per_s"));
                    if (s == 0) {
                        base = perSecond;
                    }
                    if (s == rate.getKey()) {
                        mine = perSecond;
                    }
                }
                if (base != null && mine != null) {
                    ratios.add(mine / base);
                    shown.add(String.format("%.3f", mine / base));
                    ops.add(mine);
                }
            }
            List<String[]> runs = rate.getValue();
            double median = ratios.isEmpty() ? Double.NaN : PatternSection.median(ratios);
            medians.put(rate.getKey(), median);
            md.append("| ").append(database)
                    .append(" | ").append(distinct(tsv, runs, "settings", AuditSection::pattern))
                    .append(" | ").append(distinct(tsv, runs, "users", v -> v)).append(" × ")
                    .append(distinct(tsv, runs, "seconds", v -> v))
                    .append(" | ").append(ratios.size())
                    .append(" | ").append(rate.getKey() == 0 ? "0 (off)" : rate.getKey() == 1 ? "1 (every read)"
                            : rate.getKey() + (rate.getKey() == DEFAULT_SAMPLE ? " (default)" : ""))
                    .append(" | ").append(rate.getKey() == 0 ? "1 (the base)" : String.join(", ", shown))
                    .append(" | ").append(rate.getKey() == 0 ? "1" : String.format("**%.3f**", median))
                    .append(" | ").append(ops.isEmpty() ? "-" : String.format("%.1f", PatternSection.median(ops)))
                    .append(" | ").append(sum(tsv, runs, "stale_reads")).append(" / ").append(sum(tsv, runs, "checked_reads"))
                    .append(" | ").append(sum(tsv, runs, "errors"))
                    .append(" |\n");
        }
        StringBuilder cost = new StringBuilder();
        Double atDefault = medians.get(DEFAULT_SAMPLE);
        Double atEvery = medians.get(1);
        if (atDefault != null && !atDefault.isNaN()) {
            cost.append(String.format("the default measured directly: %+.1f %% of throughput", 100 * (atDefault - 1)));
        }
        if (atEvery != null && !atEvery.isNaN()) {
            double scaled = (1 / atEvery - 1) / DEFAULT_SAMPLE;
            cost.append(cost.length() == 0 ? "" : "; ").append(String.format(
                    "from every read: %.2f %% more time per operation (%s)", 100 * scaled, scaled <= 0.01 ? "pass" : "FAIL"));
        }
        return cost.length() == 0 ? null : cost.toString();
    }

    private static int sample(String settings) {
        int at = settings.indexOf(SAMPLE);
        if (at < 0) {
            return -1;
        }
        int end = at + SAMPLE.length();
        while (end < settings.length() && Character.isDigit(settings.charAt(end))) {
            end++;
        }
        return Integer.parseInt(settings.substring(at + SAMPLE.length(), end));
    }

    private static String pattern(String settings) {
        int at = settings.lastIndexOf("; pattern ");
        return at < 0 ? "mix" : settings.substring(at + "; pattern ".length());
    }

    private static String distinct(Tsv tsv, List<String[]> rows, String column, java.util.function.UnaryOperator<String> f) {
        return String.join(", ", rows.stream().map(r -> f.apply(tsv.field(r, column))).distinct().toList());
    }

    private static long sum(Tsv tsv, List<String[]> rows, String column) {
        return rows.stream().map(r -> tsv.field(r, column)).filter(v -> !v.isEmpty()).mapToLong(Long::parseLong).sum();
    }
}
