package io.rwsplit.internal.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.rwsplit.Consistency;
import io.rwsplit.Durations;

/**
 * One row of the {@link SettingsTable}: a {@code hibernate.rwsplit.*} key, the kind of value it takes, its
 * default and what it means (the framework modules describe their own keys, such as {@code rwsplit.cdi.*}, with rows
 * too, made by the same factories). {@link #parse} is the only place a value of that kind is turned from what a user
 * wrote into what the module uses; it refuses anything else by naming the key and the value.
 * <p>
 * A key with a {@code NAME} or {@code T} segment is a template: {@code hibernate.rwsplit.replica.NAME.weight}
 * stands for the weight of every replica.
 *
 * @param key         the key, or the template of the keys
 * @param kind        what it takes
 * @param defaultValue the value when the key is absent (a {@link Duration}, an {@link Integer}, a {@link Boolean},
 *                    a {@link String}, a {@link Consistency}), or {@code null} for none
 * @param defaultText how the documentation writes the default: the value as users write it, or words in
 *                    parentheses such as {@code (none)} when there is none
 * @param min         {@link Kind#INTEGER}: the smallest value; {@link Kind#DURATION}: 1 for positive, 0 for not negative
 * @param choices     {@link Kind#CHOICE}: the accepted names, lower case
 * @param description the first sentence of the key's documentation
 */
public record Setting(String key, Kind kind, Object defaultValue, String defaultText, long min, List<String> choices,
                      String description) {

    /** What a key takes. */
    public enum Kind {
        /** Text, blank means absent. */
        TEXT,
        /** A list of entries, see {@link ReplicaList}. */
        LIST,
        /** One of {@link #choices()}, in any case, or an enum constant of that name. */
        CHOICE,
        /** An integer of at least {@link #min()}. */
        INTEGER,
        /** A {@link Duration} or its text as {@link Durations#parse} reads it. */
        DURATION,
        /** {@code true} or {@code false} in any case, or a {@link Boolean}. */
        BOOLEAN,
        /** A {@link Consistency} or its text as {@link Consistency#parse} reads it. */
        CONSISTENCY,
        /** An object in the settings map, or the name of a class with a public no-argument constructor. */
        OBJECT_OR_CLASS,
        /** An object in the settings map. */
        OBJECT
    }

    public Setting {
        choices = List.copyOf(choices);
    }

    /** Whether this row is a template ({@code NAME} or {@code T} segment). */
    public boolean isTemplate() {
        return key.contains(".NAME.") || key.contains(".T.") || key.endsWith(".PROPERTY");
    }

    /** The accepted values, as the documentation's "format" column writes them. */
    public String format() {
        return switch (kind) {
            case TEXT -> "text";
            case LIST -> "list";
            case CHOICE -> String.join(", ", choices);
            case INTEGER -> "integer >= " + min;
            case DURATION -> min > 0 ? "positive duration" : "duration, not negative";
            case BOOLEAN -> "true or false";
            case CONSISTENCY -> "consistency level";
            case OBJECT_OR_CLASS -> "object or class name";
            case OBJECT -> "object";
        };
    }

    /** What an error message says was expected; the syntax too when the value was text. */
    String expected(boolean text) {
        return switch (kind) {
            case CHOICE -> "one of " + String.join(", ", choices);
            case INTEGER -> "an integer of at least " + min;
            case DURATION -> (min > 0 ? "a positive duration" : "a duration that is not negative") + (text ? " such as"
                    + " PT0.5S, 250ms, 1.5s, 2m or 1h (a number needs a unit)" : "");
            case BOOLEAN -> "true or false";
            case CONSISTENCY -> "strong, read_your_writes, bounded_staleness:<duration such as PT0.5S or 500ms> or eventual";
            default -> format();
        };
    }

    /**
     * The value of {@code actualKey} (this key, or one instance of a template) as the module uses it: a
     * {@link Duration}, an {@link Integer}, a {@link Boolean}, a lower-case choice, a {@link Consistency}, trimmed
     * text, or the object itself; {@link #defaultValue()} for {@code null} and blank text.
     *
     * @throws InvalidSettingException naming the key and the value when the value is not of this kind
     */
    public Object parse(String actualKey, Object value) {
        if (value == null || value instanceof String text && text.isBlank()) {
            return defaultValue;
        }
        if (kind == Kind.OBJECT || kind == Kind.OBJECT_OR_CLASS) {
            return value instanceof String text ? text.trim() : value;
        }
        String text = value.toString().trim();
        switch (kind) {
            case CHOICE -> {
                String name = (value instanceof Enum<?> e ? e.name() : text).toLowerCase(Locale.ROOT);
                if (choices.contains(name)) {
                    return name;
                }
            }
            case INTEGER -> {
                Long number = null;
                if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
                    number = ((Number) value).longValue();
                }
                else if (!(value instanceof Number)) {
                    try {
                        number = Long.parseLong(text);
                    }
                    catch (NumberFormatException e) {
                        // reported below
                    }
                }
                if (number != null && number >= min && number <= Integer.MAX_VALUE) {
                    return number.intValue();
                }
            }
            case DURATION -> {
                Duration d = value instanceof Duration ? (Duration) value : Durations.valueOrNull(text);
                if (d != null && !d.isNegative() && (min == 0 || !d.isZero())) {
                    return d;
                }
            }
            case BOOLEAN -> {
                if (value instanceof Boolean b) {
                    return b;
                }
                if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(text);
                }
            }
            case CONSISTENCY -> {
                if (value instanceof Consistency c) {
                    return c;
                }
                try {
                    return Consistency.parse(text);
                }
                catch (IllegalArgumentException e) {
                    // reported below
                }
            }
            default -> {
                return text;
            }
        }
        throw Settings.invalid(actualKey, value, expected(value instanceof String));
    }

    // ------------------------------------------------------------------ rows, for the tables

    public static Setting text(String key, String defaultValue, String description) {
        return new Setting(key, Kind.TEXT, defaultValue, defaultValue == null ? "(none)" : defaultValue, 0, List.of(),
                description);
    }

    public static Setting text(String key, String defaultText, Kind kind, String description) {
        return new Setting(key, kind, null, defaultText == null ? "(none)" : defaultText, 0, List.of(), description);
    }

    public static Setting choice(String key, String defaultValue, List<String> choices, String description) {
        return new Setting(key, Kind.CHOICE, defaultValue, defaultValue, 0, choices, description);
    }

    public static Setting integer(String key, int defaultValue, int min, String description) {
        return new Setting(key, Kind.INTEGER, defaultValue, Integer.toString(defaultValue), min, List.of(), description);
    }

    public static Setting duration(String key, String defaultText, boolean positive, String description) {
        return new Setting(key, Kind.DURATION, Durations.parse(defaultText), defaultText, positive ? 1 : 0, List.of(),
                description);
    }

    public static Setting bool(String key, boolean defaultValue, String description) {
        return new Setting(key, Kind.BOOLEAN, defaultValue, Boolean.toString(defaultValue), 0, List.of(), description);
    }
}
