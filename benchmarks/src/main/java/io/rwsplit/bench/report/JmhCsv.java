package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The rows of a JMH {@code -rf csv} result file. */
record JmhCsv(List<Row> rows) {

    /** One result: the method (and secondary metric after a colon), the variant parameter, score and error. */
    record Row(String benchmark, String metric, String variant, double score, double error, String unit) {
    }

    static Optional<JmhCsv> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        List<String> header = fields(lines.get(0));
        int variantColumn = header.indexOf("Param: variant");
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<String> f = fields(line);
            String name = f.get(0);
            String metric = "";
            int colon = name.indexOf(':');
            if (colon >= 0) {
                metric = name.substring(colon + 1);
                name = name.substring(0, colon);
            }
            String method = name.substring(name.lastIndexOf('.') + 1);
            rows.add(new Row(method, metric, variantColumn < 0 ? "" : f.get(variantColumn),
                    number(f.get(4)), number(f.get(5)), f.get(6)));
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

    /** Splits one CSV line; fields may be double-quoted. */
    private static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            }
            else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
