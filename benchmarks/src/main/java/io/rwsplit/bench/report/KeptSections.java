package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Keeps the sections of the page that other commands of {@code scripts/bench.sh} generate (the pattern, audit,
 * routing-layer and profile sections, each between its markers, with its own date and command) across a full run, which rewrites the page
 * from its own results only: {@code save <page> <dir>} copies each such section of the page to {@code <dir>}, and
 * {@code restore <page> <dir>} puts each saved section back into the rewritten page where it has none (a section
 * whose results were there is regenerated instead, and left alone).
 */
public final class KeptSections {

    private record Section(String name, String begin, String end) {
    }

    private static final List<Section> SECTIONS = List.of(
            new Section("pattern", PatternSection.BEGIN, PatternSection.END),
            new Section("audit", AuditSection.BEGIN, AuditSection.END),
            new Section("layer", LayerSection.BEGIN, LayerSection.END),
            new Section("profile", ProfileSection.BEGIN, ProfileSection.END));

    private KeptSections() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3 || !List.of("save", "restore").contains(args[0])) {
            throw new IllegalArgumentException("usage: KeptSections save|restore <page> <dir>");
        }
        Path page = Path.of(args[1]);
        Path dir = Path.of(args[2]);
        for (Section section : SECTIONS) {
            Path kept = dir.resolve(section.name() + ".md");
            String text = Files.isRegularFile(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";
            int from = text.indexOf(section.begin());
            int to = text.indexOf(section.end());
            if (args[0].equals("save")) {
                if (from >= 0 && to > from) {
                    Files.createDirectories(dir);
                    Files.writeString(kept, text.substring(from, to + section.end().length()), StandardCharsets.UTF_8);
                }
            }
            else if (from < 0 && Files.isRegularFile(kept)) {
                ResultFiles.rewrite(page, Files.readString(kept, StandardCharsets.UTF_8), section.begin(), section.end());
                System.out.println("kept the " + section.name() + " section of the page (its results are not in this run)");
            }
        }
    }
}
