package io.rwsplit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Packages import downward only. The layers, lowest first: value types ({@code spi}, {@code config},
 * {@code position} and the top-level types other than the {@code RwSplit} facade), then {@code stats} and {@code balance},
 * ({@code web} with them), {@code health}, {@code replica}, {@code consistency}, {@code route}, {@code hibernate} (the only place
 * that may import Hibernate), the {@code RwSplit} facade, and {@code metrics}, which reads only the facade (as the
 * Spring module does). A reference from a lower layer to a higher one (an import or a qualified name in code) fails
 * this test; there is no list of exceptions. A package under {@code io.rwsplit.internal} has the layer of its name
 * ({@code internal.health} is {@code health}'s). {@link #packagesFormNoCycle} fails on any package cycle.
 */
class LayeringTest {

    private static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("spi", 0), Map.entry("config", 0), Map.entry("", 0), Map.entry("position", 0), Map.entry("web", 0),
            Map.entry("stats", 1), Map.entry("balance", 1),
            Map.entry("health", 2),
            Map.entry("replica", 3),
            Map.entry("consistency", 4),
            Map.entry("route", 5),
            Map.entry("hibernate", 6),
            Map.entry("RwSplit", 7),
            Map.entry("metrics", 8));

    @Test
    void lowerPackagesNeverReachUp() throws IOException {
        Path root = Path.of("src/main/java/io/rwsplit");
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                found.addAll(upward(root, file));
            }
        }
        assertEquals(Set.of(), found, "references from a lower layer to a higher one");
    }

    /** No two packages reach each other, directly or through others: each layer can be read, tested and moved alone. */
    @Test
    void packagesFormNoCycle() throws IOException {
        Path root = Path.of("src/main/java/io/rwsplit");
        Map<String, Set<String>> reaches = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String from = packageOf(root, file);
                reaches.computeIfAbsent(from, k -> new TreeSet<>()).addAll(referencedPackages(file, from));
            }
        }
        List<String> cycles = new java.util.ArrayList<>();
        for (String start : reaches.keySet()) {
            for (String next : reaches.get(start)) {
                List<String> path = pathBack(reaches, next, start);
                if (path != null) {
                    List<String> cycle = new java.util.ArrayList<>(List.of(start));
                    cycle.addAll(path);
                    cycles.add(String.join(" -> ", cycle));
                }
            }
        }
        assertEquals(List.of(), cycles, "package cycles (each shown from every package on it)");
    }

    /** A path of references from {@code from} to {@code to} (both included), or null. */
    private static List<String> pathBack(Map<String, Set<String>> reaches, String from, String to) {
        java.util.ArrayDeque<List<String>> open = new java.util.ArrayDeque<>();
        Set<String> seen = new TreeSet<>();
        open.add(List.of(from));
        while (!open.isEmpty()) {
            List<String> path = open.poll();
            String last = path.get(path.size() - 1);
            if (last.equals(to)) {
                return path;
            }
            if (seen.add(last)) {
                for (String next : reaches.getOrDefault(last, Set.of())) {
                    List<String> longer = new java.util.ArrayList<>(path);
                    longer.add(next);
                    open.add(longer);
                }
            }
        }
        return null;
    }

    /**
     * The package of a source file under io/rwsplit: its first folder below io/rwsplit or io/rwsplit/internal, "" for
     * the top level, "RwSplit" for the facade.
     */
    private static String packageOf(Path root, Path file) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        if (relative.startsWith("internal/")) {
            relative = relative.substring("internal/".length()); // io.rwsplit.internal.health is health's layer
        }
        return relative.equals("RwSplit.java") ? "RwSplit"
                : relative.contains("/") ? relative.substring(0, relative.indexOf('/')) : "";
    }

    /** The io.rwsplit packages {@code file} (in package {@code own}) refers to in code, other than its own. */
    private static Set<String> referencedPackages(Path file, String own) {
        Set<String> found = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String code = line.strip();
                if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                    continue;
                }
                if (!own.equals("RwSplit") && code.matches(".*\\bio\\.rwsplit\\.RwSplit\\b.*")) {
                    found.add("RwSplit");
                }
                int at = code.indexOf("io.rwsplit.");
                while (at >= 0) {
                    int start = at + "io.rwsplit.".length();
                    if (code.startsWith("internal.", start)) {
                        start += "internal.".length();
                    }
                    int end = start;
                    while (end < code.length() && Character.isLowerCase(code.charAt(end))) {
                        end++;
                    }
                    String target = code.substring(start, end);
                    if (end < code.length() && code.charAt(end) == '.' && LAYERS.containsKey(target)) {
                        found.add(target);
                    }
                    else if (end == start && end < code.length() && Character.isUpperCase(code.charAt(end))
                            && !code.startsWith("io.rwsplit.RwSplit", at)) {
                        found.add("");   // a top-level type
                    }
                    at = code.indexOf("io.rwsplit.", end);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        found.remove(own);
        return found;
    }

    private static List<String> upward(Path root, Path file) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        String name = packageOf(root, file);
        int own = LAYERS.get(name);
        Set<String> up = new TreeSet<>();
        for (String target : referencedPackages(file, name)) {
            if (LAYERS.get(target) > own) {
                up.add(relative + " -> " + target);
            }
        }
        if (own < LAYERS.get("hibernate") && importsHibernate(file)) {
            up.add(relative + " -> org.hibernate");
        }
        return List.copyOf(up);
    }

    private static boolean importsHibernate(Path file) {
        try {
            return Files.readAllLines(file).stream().anyMatch(line -> line.strip().startsWith("import org.hibernate."));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
