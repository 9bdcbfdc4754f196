package io.rwsplit.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.config.RwSplitConfig;
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
 * docs/configuration.md cannot drift from the code: every key of {@link RwSplitSettings} is documented, every
 * documented key exists, and every documented default is the code's default (setting a key to its documented
 * default changes nothing in the parsed configuration).
 */
class ConfigurationReferenceTest {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private final Map<String, String> documented = documentedDefaults();

    @Test
    void everyKeyOfTheSettingsClassIsDocumented() throws IllegalAccessException {
        List<String> missing = new ArrayList<>();
        for (String key : settingsKeys()) {
            boolean found = key.endsWith(".")
                    ? documented.keySet().stream().anyMatch(k -> k.startsWith(key) && k.length() > key.length())
                    : documented.containsKey(key);
            if (!found) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "keys of RwSplitSettings missing from docs/configuration.md");
    }

    @Test
    void everyDocumentedKeyExists() throws IllegalAccessException {
        Set<String> keys = settingsKeys();
        List<String> unknown = new ArrayList<>();
        for (String key : documented.keySet()) {
            boolean exists = keys.contains(key)
                    || keys.stream().anyMatch(k -> k.endsWith(".") && !k.equals(RwSplitSettings.PREFIX) && key.startsWith(k));
            if (!exists) {
                unknown.add(key);
            }
        }
        assertEquals(List.of(), unknown, "docs/configuration.md names keys that RwSplitSettings does not have");
    }

    @Test
    void documentedDefaultsAreTheCodesDefaults() {
        Map<String, Object> base = base();
        Object plain = parse(base);
        assertEquals(plain, parse(base()), "the parsed configuration must compare by value");
        List<String> wrong = new ArrayList<>();
        int compared = 0;
        for (Map.Entry<String, String> e : documented.entrySet()) {
            String value = e.getValue();
            if (value == null || base.containsKey(e.getKey())) {
                continue;
            }
            compared++;
            if (e.getKey().contains(".T.")) {
                continue; // a tenant's keys need a multi-tenant unit; their defaults are the single unit's
            }
            Map<String, Object> withDefault = base();
            withDefault.put(e.getKey().replace(".NAME.", ".replica1."), value);
            Object parsed;
            try {
                parsed = parse(withDefault);
            }
            catch (RuntimeException ex) {
                wrong.add(e.getKey() + "=" + value + " is refused: " + ex.getMessage());
                continue;
            }
            if (!plain.equals(parsed)) {
                wrong.add(e.getKey() + "=" + value + " is not the default");
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

    /**
     * Key to documented default from the tables of docs/configuration.md: the first cell's first code span is the
     * key; the second cell is the default when it is exactly one code span, else {@code null} (none, off, prose).
     */
    private static Map<String, String> documentedDefaults() {
        Markdown page = Markdown.read(Markdown.root().resolve("docs/configuration.md"));
        Map<String, String> defaults = new LinkedHashMap<>();
        for (List<String> row : page.tableRows()) {
            if (row.size() < 2) {
                continue;
            }
            Matcher key = CODE.matcher(row.get(0));
            if (!key.find() || !key.group(1).startsWith(RwSplitSettings.PREFIX)) {
                continue;
            }
            String cell = row.get(1);
            Matcher value = CODE.matcher(cell);
            String documentedDefault = value.matches() ? value.group(1) : null;
            defaults.put(key.group(1), documentedDefault);
        }
        assertTrue(defaults.size() > 25, "too few keys found in docs/configuration.md: " + defaults.keySet());
        return defaults;
    }
}
