package io.rwsplit.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.config.RwSplitConfig;
import io.rwsplit.config.Setting;
import io.rwsplit.config.SettingsTable;
import io.rwsplit.consistency.ConsistencyConfig;
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
