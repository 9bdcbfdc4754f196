package io.rwsplit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/** Appends rows to a tab-separated results file, writing its header first when the file is new. */
public final class TsvRows {

    private TsvRows() {
    }

    /** Appends {@code rows} (one line each) to {@code file}, after {@code header} when the file does not exist yet. */
    public static void append(Path file, String header, List<String> rows) throws IOException {
        if (!Files.exists(file)) {
            Files.writeString(file, header + "\n", StandardCharsets.UTF_8);
        }
        StringBuilder text = new StringBuilder();
        for (String row : rows) {
            text.append(row).append('\n');
        }
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
