package io.rwsplit.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.rwsplit.ConfigurationException;


/**
 * Reads a replica list the way users write it: one value with entries separated by whitespace, commas,
 * semicolons or new lines ({@code persistence.xml}, {@code application.properties}), or an indexed list
 * ({@code KEY[0]}, {@code KEY[1]} or {@code KEY.0}, {@code KEY.1}: a YAML list bound by Spring). A comma or
 * semicolon inside a URL stays part of it ({@code jdbc:mysql://h1,h2/db}, {@code jdbc:h2:mem:r;MODE=MySQL}):
 * after a URL, only a separator followed by the next {@code jdbc:} or {@code name=jdbc:} entry ends it.
 * Runs once at startup.
 */
public final class ReplicaList {

    private ReplicaList() {
    }

    /** Whether {@code key} is an indexed element of the list {@code listKey} ({@code listKey[n]} or {@code listKey.n}). */
    public static boolean isIndexedKey(String listKey, String key) {
        return index(listKey, key) != null;
    }

    /** Whether the settings hold the list {@code listKey} in either form. */
    public static boolean isPresent(Map<String, Object> settings, String listKey) {
        if (settings.get(listKey) != null) {
            return true;
        }
        for (Object k : settings.keySet()) {
            if (k instanceof String key && isIndexedKey(listKey, key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entries of {@code listKey}, in order; empty when the list is absent or blank.
     *
     * @throws ConfigurationException when both forms are used, or an index repeats
     */
    public static List<String> entries(Settings s, String listKey) {
        TreeMap<Integer, String> indexed = new TreeMap<>();
        Map<Integer, String> keyOfIndex = new TreeMap<>();
        for (String key : s.keysWithPrefix(listKey)) {
            Integer i = index(listKey, key);
            if (i == null) {
                continue;
            }
            if (keyOfIndex.containsKey(i)) {
                throw new ConfigurationException("hibernate-rwsplit: settings '" + keyOfIndex.get(i)
                        + "' and '" + key + "' both give replica " + i + " of '" + listKey + "': use one form");
            }
            keyOfIndex.put(i, key);
            indexed.put(i, s.string(key, ""));
        }
        String single = s.string(listKey, null);
        if (!indexed.isEmpty() && single != null) {
            throw new ConfigurationException("hibernate-rwsplit: setting '" + listKey + "' ('" + single
                    + "') and the indexed form '" + keyOfIndex.values().iterator().next() + "' are both set: use one form");
        }
        List<String> entries = new ArrayList<>();
        if (single != null) {
            entries.addAll(split(single));
        }
        for (String value : indexed.values()) {
            entries.addAll(split(value));
        }
        return entries;
    }

    /** Splits one value into entries (see the class comment). */
    static List<String> split(String value) {
        List<String> entries = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        int n = value.length();
        while (i < n) {
            int sepStart = i;
            boolean whitespace = false;
            while (i < n && isSeparator(value.charAt(i))) {
                whitespace |= Character.isWhitespace(value.charAt(i));
                i++;
            }
            String separator = value.substring(sepStart, i);
            int pieceStart = i;
            while (i < n && !isSeparator(value.charAt(i))) {
                i++;
            }
            String piece = value.substring(pieceStart, i);
            if (piece.isEmpty()) {
                continue; // trailing separators
            }
            if (current.isEmpty()) {
                current.append(piece);
            }
            else if (whitespace || !isUrlEntry(current) || startsEntry(piece)) {
                entries.add(current.toString());
                current.setLength(0);
                current.append(piece);
            }
            else {
                current.append(separator).append(piece); // a comma or semicolon inside a URL
            }
        }
        if (!current.isEmpty()) {
            entries.add(current.toString());
        }
        return entries;
    }

    private static boolean isSeparator(char c) {
        return c == ',' || c == ';' || Character.isWhitespace(c);
    }

    /** Whether an entry so far is a URL ({@code jdbc:...} or {@code name=jdbc:...}), which may contain , and ;. */
    private static boolean isUrlEntry(CharSequence entry) {
        String text = entry.toString();
        return startsEntry(text);
    }

    /** {@code jdbc:...} or {@code name=jdbc:...}. */
    private static boolean startsEntry(String piece) {
        if (piece.startsWith("jdbc:")) {
            return true;
        }
        int eq = piece.indexOf('=');
        return eq > 0 && piece.startsWith("jdbc:", eq + 1) && isName(piece.substring(0, eq));
    }

    static boolean isName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static Integer index(String listKey, String key) {
        if (!key.startsWith(listKey) || key.length() <= listKey.length() + 1) {
            return null;
        }
        String rest = key.substring(listKey.length());
        String digits;
        if (rest.charAt(0) == '[' && rest.endsWith("]")) {
            digits = rest.substring(1, rest.length() - 1);
        }
        else if (rest.charAt(0) == '.') {
            digits = rest.substring(1);
        }
        else {
            return null;
        }
        if (digits.isEmpty() || digits.length() > 9) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return null;
            }
        }
        return Integer.parseInt(digits);
    }
}
