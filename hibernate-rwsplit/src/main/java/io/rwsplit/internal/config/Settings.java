package io.rwsplit.internal.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

import io.rwsplit.Consistency;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.InvalidSettingException;

/**
 * The one reader of {@code hibernate.rwsplit.*} settings: typed access to a settings map through the rows of
 * {@link SettingsTable}, which hold every default and every rule. Every failure names the key and the bad value.
 * Runs at startup only.
 */
public final class Settings {

    private final Map<String, Object> values;

    public Settings(Map<String, Object> values) {
        this.values = values;
    }

    /**
     * Refuses a settings map with an unknown {@code hibernate.rwsplit.*} key or a value that its row refuses:
     * the first of {@link #problems}.
     *
     * @throws InvalidSettingException naming the key (and the value)
     */
    public static void check(Map<String, Object> settings) {
        refuseUnknownKeys(settings, RwSplitSettings.PREFIX, Settings::isKnown, flatKeys() + ", "
                + RwSplitSettings.REPLICA_PREFIX + "NAME." + new TreeSet<>(SettingsTable.REPLICA_OPTIONS) + ", "
                + RwSplitSettings.TENANT_PREFIX + "T." + new TreeSet<>(SettingsTable.TENANT_OPTIONS) + " (and the tenant's"
                + " replica.NAME.*), " + RwSplitSettings.RULE_PREFIX + "NAME." + new TreeSet<>(SettingsTable.RULE_OPTIONS)
                + " and " + RwSplitSettings.POOL_PREFIX + "* (HikariCP's properties)");
        List<InvalidSettingException> problems = problems(settings);
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
    }

    /**
     * The one check for unknown keys (the core's and the framework modules' own): the first key under {@code prefix},
     * in key order, that {@code known} does not accept is refused, naming it, its value (as {@link Secrets#shown}
     * shows it) and {@code knownText}.
     *
     * @throws InvalidSettingException naming the key
     */
    public static void refuseUnknownKeys(Map<String, ?> settings, String prefix, Predicate<String> known,
                                         String knownText) {
        for (String key : new TreeSet<>(stringKeys(settings, prefix))) {
            if (!known.test(key)) {
                throw new InvalidSettingException(key, settings.get(key), "hibernate-rwsplit: unknown setting '" + key
                        + "' (value '" + Secrets.shown(key, settings.get(key)) + "'); known settings are " + knownText, null);
            }
        }
    }

    /**
     * The names in a list of names (tenants, a framework's replica names): separated by whitespace; empty when the
     * value is absent or blank.
     */
    public static List<String> names(Object value) {
        if (value == null || value.toString().isBlank()) {
            return List.of();
        }
        return List.of(value.toString().trim().split("\\s+"));
    }

    /**
     * Every value of a known key that its row refuses, in key order; keys of other prefixes, unknown keys, pool
     * properties and the entries of a list are left to their readers. Frameworks call this to report the
     * problems under their own property names.
     */
    public static List<InvalidSettingException> problems(Map<String, ?> settings) {
        List<InvalidSettingException> problems = new ArrayList<>();
        for (String key : new TreeSet<>(stringKeys(settings, RwSplitSettings.PREFIX))) {
            Setting row = SettingsTable.row(key);
            if (row == null) {
                continue;
            }
            try {
                row.parse(key, settings.get(key));
            }
            catch (InvalidSettingException e) {
                problems.add(e);
            }
        }
        return problems;
    }

    /**
     * A key of the table, an entry of the indexed replica list, a known option of a replica or a tenant (which replica
     * or tenant it names is checked by the reader of that list), or a pool property (checked against HikariCP's).
     */
    private static boolean isKnown(String key) {
        if (key.startsWith(RwSplitSettings.POOL_PREFIX) || ReplicaList.isIndexedKey(RwSplitSettings.REPLICAS, key)) {
            return true;
        }
        if (key.startsWith(RwSplitSettings.REPLICA_PREFIX)) {
            return isReplicaOption(key.substring(RwSplitSettings.REPLICA_PREFIX.length()));
        }
        if (key.startsWith(RwSplitSettings.TENANT_PREFIX)) {
            String rest = key.substring(RwSplitSettings.TENANT_PREFIX.length());
            int dot = rest.indexOf('.');
            String option = dot < 0 ? "" : rest.substring(dot + 1);
            return SettingsTable.TENANT_OPTIONS.contains(option) || ReplicaList.isIndexedKey("replicas", option)
                    || option.startsWith("replica.") && isReplicaOption(option.substring("replica.".length()));
        }
        return SettingsTable.row(key) != null;
    }

    /** {@code NAME.option} with a known replica option. */
    private static boolean isReplicaOption(String nameAndOption) {
        int dot = nameAndOption.lastIndexOf('.');
        return dot > 0 && SettingsTable.REPLICA_OPTIONS.contains(nameAndOption.substring(dot + 1));
    }

    private static TreeSet<String> flatKeys() {
        TreeSet<String> keys = new TreeSet<>();
        for (Setting s : SettingsTable.ALL) {
            if (!s.isTemplate()) {
                keys.add(s.key());
            }
        }
        return keys;
    }

    private static List<String> stringKeys(Map<String, ?> settings, String prefix) {
        List<String> keys = new ArrayList<>();
        for (Object k : settings.keySet()) {
            if (k instanceof String key && key.startsWith(prefix)) {
                keys.add(key);
            }
        }
        return keys;
    }

    // ------------------------------------------------------------------ typed access

    public Object raw(String key) {
        return values.get(key);
    }

    /** The keys that start with {@code prefix}, sorted. */
    public List<String> keysWithPrefix(String prefix) {
        List<String> keys = new ArrayList<>();
        for (Object k : values.keySet()) {
            if (k instanceof String key && key.startsWith(prefix)) {
                keys.add(key);
            }
        }
        Collections.sort(keys);
        return keys;
    }

    /** Trimmed text of a key that is not in the table (such as Hibernate's own), or {@code defaultValue}. */
    public String string(String key, String defaultValue) {
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        String text = value.toString().trim();
        return text.isEmpty() ? defaultValue : text;
    }

    /**
     * A key that is not ours and takes a number of milliseconds of at least 0 (Jakarta Persistence's query timeout), or
     * {@code null} when it is absent or blank.
     *
     * @throws InvalidSettingException naming the key and the value
     */
    public Duration millis(String key) {
        Object value = values.get(key);
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        try {
            long millis = value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().trim());
            if (millis >= 0) {
                return Duration.ofMillis(millis);
            }
        }
        catch (NumberFormatException e) {
            // refused below
        }
        throw invalid(key, value, "a number of milliseconds of at least 0");
    }

    /** Whether a key that is not ours (such as one of Hibernate's flags) is {@code true}, in any case. */
    public boolean isTrue(String key) {
        Object value = values.get(key);
        return value != null && "true".equalsIgnoreCase(value.toString().trim());
    }

    /** Trimmed text, or the row's default. */
    public String string(Setting row) {
        return string(row, row.key());
    }

    /** Trimmed text of one instance of a template row ({@code actualKey}), or the row's default. */
    public String string(Setting row, String actualKey) {
        return (String) row.parse(actualKey, values.get(actualKey));
    }

    public int integer(Setting row) {
        return integer(row, row.key());
    }

    public int integer(Setting row, String actualKey) {
        return (Integer) row.parse(actualKey, values.get(actualKey));
    }

    public Duration duration(Setting row) {
        return (Duration) row.parse(row.key(), values.get(row.key()));
    }

    public boolean bool(Setting row) {
        return (Boolean) row.parse(row.key(), values.get(row.key()));
    }

    /** The lower-case choice of a {@link Setting.Kind#CHOICE} row. */
    public String choice(Setting row) {
        return (String) row.parse(row.key(), values.get(row.key()));
    }

    /** A choice as the enum constant of the same name (the table's choices are the enum's names). */
    public <E extends Enum<E>> E enumValue(Setting row, Class<E> type) {
        Object value = values.get(row.key());
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        return Enum.valueOf(type, choice(row).toUpperCase(java.util.Locale.ROOT));
    }

    public Consistency consistency(Setting row) {
        return (Consistency) row.parse(row.key(), values.get(row.key()));
    }

    /** An object of {@code type} given in the settings map, or {@code null} when absent. */
    public <T> T object(Setting row, Class<T> type) {
        Object value = values.get(row.key());
        if (value == null) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw invalid(row.key(), value, "an " + type.getName() + " object in the settings map");
        }
        return type.cast(value);
    }

    /**
     * An instance of {@code type} given in the settings map, or created from a class name (a {@link Class} or its
     * name) with its public no-argument constructor; {@code null} when absent.
     */
    public <T> T instance(Setting row, Class<T> type) {
        Object value = values.get(row.key());
        if (value == null || value instanceof String text && text.isBlank()) {
            return null;
        }
        return instantiate(row.key(), value, type);
    }

    /**
     * {@code value} when it is a {@code type}, else an instance of the class it names (a {@link Class} or a class
     * name) made with its public no-argument constructor.
     *
     * @throws InvalidSettingException naming {@code key} and the value when that fails
     */
    public static <T> T instantiate(String key, Object value, Class<T> type) {
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        if (!(value instanceof String) && !(value instanceof Class<?>)) {
            throw invalid(key, value, "an " + type.getName() + " object or class name");
        }
        Object created;
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Class<?> cls = value instanceof Class<?> c ? c : Class.forName(value.toString().trim(), true,
                    loader != null ? loader : Settings.class.getClassLoader());
            created = cls.getConstructor().newInstance();
        }
        catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            throw invalid(key, value, "an " + type.getName() + " object or the name of a class with a public"
                    + " no-argument constructor (" + e + ")");
        }
        if (!type.isInstance(created)) {
            throw invalid(key, value, "a class implementing " + type.getName());
        }
        return type.cast(created);
    }

    public static InvalidSettingException invalid(String key, Object value, String expected) {
        return new InvalidSettingException(key, value, "hibernate-rwsplit: invalid value '" + Secrets.shown(key, value)
                + "' for setting '" + key + "': expected " + Secrets.scrub(expected), expected);
    }
}
