package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plain-text result files scripts/bench.sh leaves in a results directory besides JMH's CSV files
 * ({@link JmhCsv}): {@code meta.properties} and the workload runner's tab-separated tables.
 */
final class ResultFiles {

    private ResultFiles() {
    }

    /**
     * The {@code key=value} lines of {@code file} in their order (a value is the rest of its line, as written);
     * empty when the file does not exist.
     */
    static Map<String, String> meta(Path file) throws IOException {
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

    private static final Pattern REPRODUCE = Pattern.compile("(?m)^## Reproduce$");

    /**
     * {@code page} with {@code section} (markers included) in place of the section between {@code begin} and
     * {@code end}, or before the {@code ## Reproduce} heading when there is none; fails when the markers are broken or
     * neither is there.
     */
    static String splice(String page, String section, String begin, String end, Path name) {
        int from = page.indexOf(begin);
        int to = page.indexOf(end);
        if (from >= 0 || to >= 0) {
            if (from < 0 || to < from || page.indexOf(begin, from + 1) >= 0 || page.indexOf(end, to + 1) >= 0) {
                throw new IllegalArgumentException(name + ": expected one " + begin + " followed by one " + end
                        + " (found " + count(page, begin) + " and " + count(page, end) + "); mend the page by hand");
            }
            return page.substring(0, from) + section + page.substring(to + end.length());
        }
        Matcher reproduce = REPRODUCE.matcher(page);
        if (!reproduce.find()) {
            throw new IllegalArgumentException(name + ": neither " + begin + " nor a '## Reproduce' heading to insert "
                    + "the section before; is this the page scripts/bench.sh generates?");
        }
        return page.substring(0, reproduce.start()) + section + "\n\n" + page.substring(reproduce.start());
    }

    private static int count(String text, String marker) {
        int n = 0;
        for (int i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) {
            n++;
        }
        return n;
    }

    /** A tab-separated file whose first line names the columns, such as the workload runner's. */
    static Tsv tsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> header = lines.isEmpty() ? List.of() : List.of(lines.get(0).split("\t", -1));
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return new Tsv(file, header, rows);
    }

    /** The rows of a tab-separated file, each with every field (trailing empty ones too), and its column names. */
    record Tsv(Path file, List<String> header, List<String[]> rows) {

        /** The field of {@code row} in the column named {@code column}; fails naming the file when there is none. */
        String field(String[] row, String column) {
            int index = header.indexOf(column);
            if (index < 0) {
                throw new IllegalArgumentException(file + ": no column '" + column + "' in the header " + header);
            }
            return index < row.length ? row[index] : "";
        }
    }
}
