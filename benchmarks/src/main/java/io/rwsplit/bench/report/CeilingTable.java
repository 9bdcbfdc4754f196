package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rwsplit.bench.report.ResultFiles.Tsv;

/**
 * The pattern section's table of what the same pattern loses in raw JDBC when its reads move to the replicas, from
 * {@code io.rwsplit.bench.workload.SpreadCeiling}'s rows ({@code ceiling.tsv} for MariaDB, {@code ceiling-postgres.tsv}
 * for PostgreSQL, written by {@code bench.sh pattern --with-ceiling}): the pattern in raw JDBC with its reads on the
 * primary, on the first replica alone and spread over the replicas (per thread, and in turn), in rounds; a target's
 * ratio is its throughput divided by that of the reads on the primary in the same round. Nothing when neither file is there.
 */
final class CeilingTable {

    private static final Map<String, String> FILES = new LinkedHashMap<>();

    static {
        FILES.put("MariaDB", "ceiling.tsv");
        FILES.put("PostgreSQL", "ceiling-postgres.tsv");
    }

    private CeilingTable() {
    }

    /** The table and its explanation, or an empty string when no ceiling was measured. */
    static String write(Path dir) throws IOException {
        StringBuilder md = new StringBuilder();
        for (Map.Entry<String, String> source : FILES.entrySet()) {
            Path file = dir.resolve(source.getValue());
            if (!Files.isRegularFile(file)) {
                continue;
            }
            if (md.length() == 0) {
                md.append("""
                        **What the same pattern loses in raw JDBC when its reads move to the replicas** \
                        (`--with-ceiling`, `io.rwsplit.bench.workload.SpreadCeiling`): without Hibernate and without \
                        hibernate-rwsplit, by as many threads as the workload has users, each increments its own row \
                        in a transaction on the primary (select, update, commit), reads it back, then reads 9 random \
                        rows (prepared point reads, autocommit), the reads on the run's target: the primary, the first \
                        replica alone, the replicas with each thread always on the same one (thread *i* on replica \
                        *i* mod 2, as the default `thread_affinity` balancer keeps each thread to one), or the \
                        replicas in turn for each thread's reads (one connection to each, as `load_balancer=round_robin` \
                        spreads successive sessions). Rounds of four runs, the one that \
                        goes first rotating; a ratio is a run's operations per second divided by those of the run \
                        with the reads on the primary in its round. Nothing waits for replication here (a read-back \
                        may be stale). It shows what moving the reads costs the servers and the driver on this \
                        machine, apart from Hibernate and from the module; the replica alone shows whether that cost \
                        is the replica's or the spreading's. It is no bound for the ratios above: there Hibernate's \
                        own client work, the same on both sides, is part of every operation, so what the servers \
                        lose weighs less.

                        | database | threads × s per run | rounds | reads on the primary: ops/s (median) | reads on the first replica: ratio per round | median | each thread on one replica: ratio per round | median | replicas in turn: ratio per round | median |
                        |---|---|---:|---:|---|---:|---|---:|---|---:|
                        """);
            }
            md.append(row(source.getKey(), ResultFiles.tsv(file)));
        }
        String cpu = cpuTable(dir);
        if (!cpu.isEmpty()) {
            md.append('\n').append(cpu);
        }
        return md.toString();
    }

    private static final List<String> TARGETS = List.of("primary", "replica1", "replicas", "alternate");
    private static final Map<String, String> TARGET_NAMES = Map.of("primary", "reads on the primary",
            "replica1", "reads on the first replica", "replicas", "each thread on one replica",
            "alternate", "replicas in turn");

    /**
     * The CPU each operation of those runs cost, by process (rows written with it only), or an empty string: what a
     * read costs the servers on a replica rather than on the primary, without Hibernate and the module.
     */
    private static String cpuTable(Path dir) throws IOException {
        StringBuilder t = new StringBuilder();
        for (Map.Entry<String, String> source : FILES.entrySet()) {
            Path file = dir.resolve(source.getValue());
            if (!Files.isRegularFile(file)) {
                continue;
            }
            Tsv tsv = ResultFiles.tsv(file);
            if (!tsv.header().contains(PatternSection.CPU_COLUMNS[0])) {
                continue;
            }
            Map<String, Map<String, String[]>> rounds = new LinkedHashMap<>();
            for (String[] r : tsv.rows()) {
                if (!tsv.field(r, PatternSection.CPU_COLUMNS[0]).equals("-")) {
                    rounds.computeIfAbsent(tsv.field(r, "round"), k -> new LinkedHashMap<>()).put(tsv.field(r, "target"), r);
                }
            }
            for (String target : TARGETS) {
                // the rounds with both this target's run and the run with the reads on the primary, aligned
                List<String[]> runs = new ArrayList<>();
                List<String[]> primaryRuns = new ArrayList<>();
                for (Map<String, String[]> round : rounds.values()) {
                    if (round.containsKey(target) && round.containsKey("primary")) {
                        runs.add(round.get(target));
                        primaryRuns.add(round.get("primary"));
                    }
                }
                if (!runs.isEmpty()) {
                    PatternSection.cpuRow(t, source.getKey(), TARGET_NAMES.get(target), tsv, runs,
                            target.equals("primary") ? null : primaryRuns);
                }
            }
        }
        if (t.length() == 0) {
            return "";
        }
        return """
                CPU time per operation of the same raw JDBC runs, by process, as in the table of the stacks above: \
                the median of the rounds (the total is the median of the runs' totals, not the sum of the medians \
                beside it); *total / primary* is the median over the rounds of the total's ratio to the run with \
                the reads on the primary in its round (above 1: moving the reads costs the machine more CPU per \
                operation, which on cores the servers share is throughput lost); *cores busy* near the machine's \
                cores means they were saturated.

                | database | reads | client JVM µs/op | primary µs/op | replicas µs/op | total µs/op | total / primary | cores busy |
                |---|---|---:|---:|---:|---:|---:|---:|
                """ + t;
    }

    private static String row(String database, Tsv tsv) {
        Map<String, Map<String, Double>> rounds = new LinkedHashMap<>();
        String shape = null;
        for (String[] r : tsv.rows()) {
            rounds.computeIfAbsent(tsv.field(r, "round"), k -> new LinkedHashMap<>())
                    .put(tsv.field(r, "target"), Double.parseDouble(tsv.field(r, "ops_per_s")));
            shape = tsv.field(r, "threads") + " × " + tsv.field(r, "seconds");
        }
        List<Double> primary = new ArrayList<>();
        List<Double> alone = new ArrayList<>();
        List<Double> spread = new ArrayList<>();
        List<Double> alternate = new ArrayList<>();
        for (Map<String, Double> round : rounds.values()) {
            Double base = round.get("primary");
            if (base == null || base <= 0 || !round.containsKey("replica1") || !round.containsKey("replicas")
                    || !round.containsKey("alternate")) {
                continue;   // an incomplete round (the run stopped) pairs nothing
            }
            primary.add(base);
            alone.add(round.get("replica1") / base);
            spread.add(round.get("replicas") / base);
            alternate.add(round.get("alternate") / base);
        }
        if (primary.isEmpty()) {
            return "| " + database + " | " + (shape == null ? "" : shape) + " | 0: no complete round | | | | | | | |\n";
        }
        return "| " + database + " | " + shape + " | " + primary.size()
                + " | " + String.format("%.1f", PatternSection.median(primary))
                + " | " + ratios(alone) + " | " + String.format("%.3f", PatternSection.median(alone))
                + " | " + ratios(spread) + " | **" + String.format("%.3f", PatternSection.median(spread)) + "**"
                + " | " + ratios(alternate) + " | **" + String.format("%.3f", PatternSection.median(alternate)) + "** |\n";
    }

    private static String ratios(List<Double> values) {
        return String.join(", ", values.stream().map(v -> String.format("%.3f", v)).toList());
    }
}
