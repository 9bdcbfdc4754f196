package io.rwsplit.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.RwSplitConfig;
import io.rwsplit.internal.config.Setting;
import io.rwsplit.internal.config.SettingsTable;
import io.rwsplit.internal.consistency.ConsistencyConfig;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md cannot drift from the code: its core tables list exactly the rows of {@link SettingsTable}
 * with the same default and format, each meaning begins with the row's description, every key of
 * {@link RwSplitSettings} has a row, and every documented default is the code's default (setting a key to its
 * documented default changes nothing in the parsed configuration).
 */
class ConfigurationReferenceTest {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** Documented rows by key: default cell, format cell, meaning cell. */
    private final Map<String, List<String>> documented = documentedRows();

    @Test
    void theDocumentedKeysAreTheRowsOfTheTable() {
        Set<String> table = new TreeSet<>();
        SettingsTable.ALL.forEach(s -> table.add(s.key()));
        assertEquals(table, new TreeSet<>(documented.keySet()), "docs/configuration.md against SettingsTable");
    }

    @Test
    void defaultFormatAndDescriptionAreTheTables() {
        List<String> wrong = new ArrayList<>();
        for (Setting s : SettingsTable.ALL) {
            List<String> row = documented.get(s.key());
            if (row == null) {
                continue; // reported by theDocumentedKeysAreTheRowsOfTheTable
            }
            String defaultCell = s.defaultText().startsWith("(") ? s.defaultText() : "`" + s.defaultText() + "`";
            if (!row.get(0).equals(defaultCell)) {
                wrong.add(s.key() + ": default '" + row.get(0) + "', the table says '" + defaultCell + "'");
            }
            if (!row.get(1).equals(s.format())) {
                wrong.add(s.key() + ": format '" + row.get(1) + "', the table says '" + s.format() + "'");
            }
            if (!row.get(2).startsWith(s.description().substring(0, s.description().length() - 1))) {
                wrong.add(s.key() + ": meaning does not begin with '" + s.description() + "'");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyKeyOfTheSettingsClassHasARow() throws IllegalAccessException {
        List<String> missing = new ArrayList<>();
        for (String key : settingsKeys()) {
            boolean found = key.endsWith(".")
                    ? SettingsTable.ALL.stream().anyMatch(s -> s.key().startsWith(key) && s.key().length() > key.length())
                    : SettingsTable.ALL.stream().anyMatch(s -> s.key().equals(key));
            if (!found) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "keys of RwSplitSettings missing from SettingsTable");
    }

    /**
     * The Javadoc of each key of {@code RwSplitSettings} that states a default ({@code default {@code 250ms}},
     * {@code {@code round_robin} (default}) states the row's: the table stays the one list of defaults.
     */
    @Test
    void theJavadocDefaultsOfTheSettingsClassAreTheRows() throws Exception {
        String source = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/java/io/rwsplit/RwSplitSettings.java"));
        Matcher field = Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public static final String (\\w+)", Pattern.DOTALL)
                .matcher(source);
        Pattern stated = Pattern.compile("(?i)default:?\\s+(?:\\{@code\\s+([^}]+)\\}|(\\d+))|\\{@code\\s+([^}]+)\\}\\s+\\(default");
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        while (field.find()) {
            String key = (String) RwSplitSettings.class.getField(field.group(2)).get(null);
            Setting row = SettingsTable.row(key);
            if (row == null || row.isTemplate()) {
                continue; // a prefix: its options are rows of their own
            }
            Matcher m = stated.matcher(field.group(1));
            if (!m.find()) {
                continue;
            }
            String text = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            checked++;
            Object value;
            try {
                value = row.parse(key, text);
            }
            catch (RuntimeException e) {
                wrong.add(field.group(2) + ": the Javadoc's default '" + text + "' is refused: " + e.getMessage());
                continue;
            }
            if (!java.util.Objects.equals(value, row.defaultValue())) {
                wrong.add(field.group(2) + ": the Javadoc says default '" + text + "', the table '" + row.defaultText() + "'");
            }
        }
        assertTrue(checked >= 15, "only " + checked + " Javadoc defaults found");
        assertEquals(List.of(), wrong);
    }

    @Test
    void documentedDefaultsAreTheCodesDefaults() {
        Map<String, Object> base = base();
        Object plain = parse(base);
        assertEquals(plain, parse(base()), "the parsed configuration must compare by value");
        List<String> wrong = new ArrayList<>();
        int compared = 0;
        for (Map.Entry<String, List<String>> e : documented.entrySet()) {
            Matcher code = CODE.matcher(e.getValue().get(0));
            if (!code.matches() || base.containsKey(e.getKey()) || e.getKey().contains(".T.")) {
                continue; // no default, the module's switch, or a tenant's key (a multi-tenant unit)
            }
            compared++;
            Map<String, Object> withDefault = base();
            withDefault.put(e.getKey().replace(".NAME.", ".replica1."), code.group(1));
            Object parsed;
            try {
                parsed = parse(withDefault);
            }
            catch (RuntimeException ex) {
                wrong.add(e.getKey() + "=" + code.group(1) + " is refused: " + ex.getMessage());
                continue;
            }
            if (!plain.equals(parsed)) {
                wrong.add(e.getKey() + "=" + code.group(1) + " is not the default");
            }
        }
        assertTrue(compared >= 20, "compared only " + compared + " defaults");
        assertEquals(List.of(), wrong, "documented defaults that differ from the code's");
    }

    /** The single-primary configuration and the consistency configuration, which together hold every default. */
    private static Object parse(Map<String, Object> settings) {
        return List.of(RwSplitConfig.from(settings), ConsistencyConfig.from(settings));
    }

    private static Map<String, Object> base() {
        Map<String, Object> settings = new HashMap<>();
        settings.put("jakarta.persistence.jdbc.url", "jdbc:h2:mem:config-reference-primary");
        settings.put(RwSplitSettings.REPLICAS, "jdbc:h2:mem:config-reference-replica");
        return settings;
    }

    private static Set<String> settingsKeys() throws IllegalAccessException {
        Set<String> keys = new TreeSet<>();
        for (Field field : RwSplitSettings.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                String key = (String) field.get(null);
                if (!key.equals(RwSplitSettings.PREFIX)) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }

    /** The rows of the core tables of docs/configuration.md (four cells, the first a {@code hibernate.rwsplit.} key). */
    private static Map<String, List<String>> documentedRows() {
        Markdown page = Markdown.read(Markdown.root().resolve("docs/configuration.md"));
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (List<String> row : page.tableRows()) {
            Matcher key = CODE.matcher(row.get(0));
            if (row.size() != 4 || !key.matches() || !key.group(1).startsWith(RwSplitSettings.PREFIX)) {
                continue;
            }
            rows.put(key.group(1), row.subList(1, 4));
        }
        assertTrue(rows.size() > 25, "too few keys found in docs/configuration.md: " + rows.keySet());
        return rows;
    }
}
