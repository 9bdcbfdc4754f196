package io.rwsplit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs JMH with its ordinary command line and writes one CSV row per benchmark, variant and metric with
 * the mean and JMH's 99.9% error, and also the best (minimum) and median measurement iteration. On a
 * shared machine other processes only ever make an iteration slower, so the best iteration is the least
 * load-sensitive estimate of a variant's own cost; the report shows both.
 * <p>
 * Usage: {@code JmhMain <out.csv> <JMH options...>}.
 */
public final class JmhMain {

    static final String HEADER = "benchmark,metric,variant,mean,error,best,median,iterations,unit";

    private JmhMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: JmhMain <out.csv> <JMH options...>");
        }
        Path out = Path.of(args[0]);
        Collection<RunResult> results = new Runner(new CommandLineOptions(Arrays.copyOfRange(args, 1, args.length))).run();
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (RunResult run : results) {
            String name = run.getParams().getBenchmark();
            String benchmark = name.substring(name.lastIndexOf('.') + 1);
            String variant = run.getParams().getParam("variant");
            List<Double> iterations = new ArrayList<>();
            for (BenchmarkResult fork : run.getBenchmarkResults()) {
                for (IterationResult iteration : fork.getIterationResults()) {
                    iterations.add(iteration.getPrimaryResult().getScore());
                }
            }
            lines.add(line(benchmark, "", variant, run.getPrimaryResult(), iterations));
            for (Map.Entry<String, Result> secondary : run.getSecondaryResults().entrySet()) {
                String metric = secondary.getKey().replaceFirst("^[^a-zA-Z]+", "");
                lines.add(line(benchmark, metric, variant, secondary.getValue(), List.of()));
            }
        }
        write(out, lines);
    }

    private static String line(String benchmark, String metric, String variant, Result<?> result, List<Double> iterations) {
        double best = Double.NaN;
        double median = Double.NaN;
        if (!iterations.isEmpty()) {
            double[] sorted = iterations.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            best = sorted[0];
            median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        }
        return String.join(",", benchmark, metric, variant == null ? "" : variant,
                number(result.getScore()), number(result.getScoreError()), number(best), number(median),
                String.valueOf(iterations.size()), result.getScoreUnit());
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static void write(Path out, List<String> lines) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(out, lines, StandardCharsets.UTF_8);
    }
}
