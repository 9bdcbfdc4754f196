package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The rows of a result file written by {@link io.rwsplit.bench.JmhMain}. */
record JmhCsv(List<Row> rows) {

    /**
     * One result: the benchmark method, the secondary metric (empty for the primary one), the variant
     * parameter, the mean and its 99.9% error, the best and the median iteration (primary metric only).
     */
    record Row(String benchmark, String metric, String variant, double score, double error, double best,
               double median, String unit) {
    }

    static Optional<JmhCsv> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            rows.add(new Row(f[0], f[1], f[2], number(f[3]), number(f[4]), number(f[5]), number(f[6]), f[8]));
        }
        return rows.isEmpty() ? Optional.empty() : Optional.of(new JmhCsv(rows));
    }

    Optional<Row> find(String benchmark, String metric, String variant) {
        return rows.stream()
                .filter(r -> r.benchmark.equals(benchmark) && r.metric.equals(metric) && r.variant.equals(variant))
                .findFirst();
    }

    List<String> benchmarks() {
        return rows.stream().filter(r -> r.metric.isEmpty()).map(Row::benchmark).distinct().toList();
    }

    List<String> variants() {
        return rows.stream().map(Row::variant).distinct().toList();
    }

    private static double number(String text) {
        return text.isEmpty() || text.equals("NaN") ? Double.NaN : Double.parseDouble(text);
    }
}
