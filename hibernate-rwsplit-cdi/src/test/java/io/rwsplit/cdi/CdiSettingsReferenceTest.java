package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.config.Setting;

/** docs/cdi.md's table of {@code rwsplit.cdi.*} keys is {@link CdiSettings}: the same keys, defaults and meanings. */
class CdiSettingsReferenceTest {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void theDocumentedKeysAreTheRows() throws IOException {
        Map<String, List<String>> documented = documentedRows();
        TreeSet<String> rows = new TreeSet<>();
        CdiSettings.ALL.forEach(s -> rows.add(s.key()));
        assertEquals(rows, new TreeSet<>(documented.keySet()), "docs/cdi.md against CdiSettings");
    }

    @Test
    void theDocumentedDefaultsAndMeaningsAreTheRows() throws IOException {
        Map<String, List<String>> documented = documentedRows();
        List<String> wrong = new ArrayList<>();
        for (Setting s : CdiSettings.ALL) {
            List<String> row = documented.get(s.key());
            if (row == null) {
                continue; // reported by theDocumentedKeysAreTheRows
            }
            Matcher code = CODE.matcher(row.get(0));
            String documentedDefault = code.lookingAt() ? code.group(1) : row.get(0);
            String expected = s.defaultText().equals("(none)") ? "none" : s.defaultText();
            if (!documentedDefault.equals(expected)) {
                wrong.add(s.key() + ": default '" + row.get(0) + "', the row says '" + expected + "'");
            }
            if (!row.get(1).startsWith(s.description())) {
                wrong.add(s.key() + ": meaning '" + row.get(1) + "' does not begin with '" + s.description() + "'");
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * Rows of docs/cdi.md whose first cell is a {@code rwsplit.cdi.} key, by key: default cell, meaning cell. A cell
     * {@code `a.b.user` / `.password`} documents both {@code a.b.user} and {@code a.b.password}.
     */
    private static Map<String, List<String>> documentedRows() throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "cdi.md"))) {
            if (!line.startsWith("| `" + CdiSettings.PREFIX)) {
                continue;
            }
            String[] cells = line.substring(1).split("\\|");
            List<String> rest = List.of(cells[1].trim(), cells[2].trim());
            Matcher keys = CODE.matcher(cells[0]);
            String first = null;
            while (keys.find()) {
                String key = keys.group(1);
                if (first == null) {
                    first = key;
                }
                else {
                    key = first.substring(0, first.lastIndexOf('.')) + key; // `.password` after `a.b.user`
                }
                rows.put(key, rest);
            }
        }
        assertTrue(rows.size() >= 10, "too few rwsplit.cdi keys found in docs/cdi.md: " + rows.keySet());
        return rows;
    }
}
