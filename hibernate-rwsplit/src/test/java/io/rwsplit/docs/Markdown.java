package io.rwsplit.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough Markdown for the documentation tests: headings (GitHub anchors), links, table rows outside code. */
final class Markdown {

    private static final Pattern LINK = Pattern.compile("(?<!!)\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");
    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");

    final Path file;
    final List<String> prose = new ArrayList<>();

    private Markdown(Path file, List<String> lines) {
        this.file = file;
        boolean fenced = false;
        for (String line : lines) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (!fenced) {
                prose.add(line);
            }
        }
    }

    static Markdown read(Path file) {
        try {
            return new Markdown(file, Files.readAllLines(file));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository root: the nearest directory upwards holding README.md and the parent pom. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("docs"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("repository root with README.md and docs/ not found above " + Path.of("").toAbsolutePath());
    }

    /** The anchors GitHub generates for the headings, duplicates numbered. */
    Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose) {
            if (!line.startsWith("#")) {
                continue;
            }
            String text = line.replaceFirst("^#+\\s*", "");
            String anchor = slug(text);
            int n = seen.merge(anchor, 1, Integer::sum);
            anchors.add(n == 1 ? anchor : anchor + "-" + (n - 1));
        }
        return anchors;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            }
            else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }

    /** Link targets in prose (inline code spans removed), images included. */
    List<String> links() {
        List<String> targets = new ArrayList<>();
        for (String line : prose) {
            String text = line.replaceAll("`[^`]*`", "");
            for (Pattern p : List.of(LINK, IMAGE)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    targets.add(m.group(2));
                }
            }
        }
        return targets;
    }

    /** The cells of every table row in prose, trimmed. */
    List<List<String>> tableRows() {
        List<List<String>> rows = new ArrayList<>();
        for (String line : prose) {
            String t = line.strip();
            if (!t.startsWith("|") || t.matches("\\|[\\s:|-]+\\|?")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String cell : t.substring(1).split("(?<!\\\\)\\|", -1)) {
                cells.add(cell.strip());
            }
            if (!cells.isEmpty() && cells.get(cells.size() - 1).isEmpty()) {
                cells.remove(cells.size() - 1);
            }
            rows.add(cells);
        }
        return rows;
    }
}
