package io.rwsplit.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;

/**
 * Typed, validating access to a settings map. Every failure names the key and the bad value.
 */
public final class Settings {

    private final Map<String, Object> values;

    public Settings(Map<String, Object> values) {
        this.values = values;
    }

    public Object raw(String key) {
        return values.get(key);
    }

    /** The keys that start with {@code prefix}, sorted. */
    public java.util.List<String> keysWithPrefix(String prefix) {
        java.util.List<String> keys = new java.util.ArrayList<>();
        for (Object k : values.keySet()) {
            if (k instanceof String key && key.startsWith(prefix)) {
                keys.add(key);
            }
        }
        java.util.Collections.sort(keys);
        return keys;
    }

    public String string(String key, String defaultValue) {
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        String text = value.toString().trim();
        return text.isEmpty() ? defaultValue : text;
    }

    public int integer(String key, int defaultValue, int min) {
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        int result;
        if (value instanceof Number n) {
            result = n.intValue();
        }
        else {
            try {
                result = Integer.parseInt(value.toString().trim());
            }
            catch (NumberFormatException e) {
                throw invalid(key, value, "an integer");
            }
        }
        if (result < min) {
            throw invalid(key, value, "an integer of at least " + min);
        }
        return result;
    }

    public Duration duration(String key, Duration defaultValue) {
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        Duration result = value instanceof Duration d ? d : parseDuration(key, value.toString().trim());
        if (result.isNegative()) {
            throw invalid(key, value, "a duration that is not negative");
        }
        return result;
    }

    public boolean bool(String key, boolean defaultValue) {
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw invalid(key, value, "true or false");
    }

    public <E extends Enum<E>> E enumValue(String key, Class<E> type, E defaultValue) {
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        String text = value.toString().trim();
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(text)) {
                return constant;
            }
        }
        StringBuilder allowed = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            allowed.append(allowed.isEmpty() ? "" : ", ").append(constant.name().toLowerCase(Locale.ROOT));
        }
        throw invalid(key, value, "one of " + allowed);
    }

    static Duration parseDuration(String key, String text) {
        try {
            if (text.regionMatches(true, 0, "P", 0, 1)) {
                return Duration.parse(text);
            }
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2).trim()));
            }
            if (text.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(text.substring(0, text.length() - 1).trim()) * 1000));
            }
            if (text.equals("0")) {
                return Duration.ZERO;
            }
        }
        catch (NumberFormatException | DateTimeParseException e) {
            // fall through to the error below
        }
        throw invalid(key, text, "a duration such as PT0.5S, 500ms or 2s");
    }

    public static ConnectionProviderConfigurationException invalid(String key, Object value, String expected) {
        return new ConnectionProviderConfigurationException(
                "hibernate-rwsplit: invalid value '" + value + "' for setting '" + key + "': expected " + expected);
    }
}
