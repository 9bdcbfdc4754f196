package io.rwsplit.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import io.rwsplit.Consistency;
import io.rwsplit.InvalidSettingException;
import io.rwsplit.RwSplitSettings;

/**
 * A rule by query shape ({@link RwSplitSettings#RULE_PREFIX}): which statements it matches, and where their reads go
 * (the primary, or a consistency level of their own). Validated at startup; matched once per distinct SQL string.
 *
 * @param name        the rule's name, from its keys
 * @param match       how it matches
 * @param pattern     the id, the source, the prefix (lower case for a prefix) or the named query's name
 * @param consistency the level of the reads it matches, or null: they go to the primary
 */
public record ShapeRule(String name, Match match, String pattern, Consistency consistency) {

    /** What a rule's {@code match} compares. */
    public enum Match {
        /** The shape's id, exactly. */
        ID,
        /** The comment that opens the statement, exactly (trimmed). */
        SOURCE,
        /** The beginning of the shape's normalised SQL, ASCII case ignored. */
        PREFIX,
        /**
         * A named query, by its name. It matches nothing until the session factory is built and the rule is
         * {@linkplain #asSource resolved} to the comment Hibernate writes into that query's SQL.
         */
        QUERY
    }

    /** Whether the reads of the statements it matches go to the primary. */
    public boolean toPrimary() {
        return consistency == null;
    }

    /** Whether it matches a statement of shape {@code id}, normalised SQL {@code text} and opening comment {@code source}. */
    public boolean matches(String id, String text, String source) {
        return switch (match) {
            case ID -> pattern.equals(id);
            case SOURCE -> pattern.equals(source);
            case PREFIX -> text.regionMatches(true, 0, pattern, 0, pattern.length());
            case QUERY -> false;
        };
    }

    /** The key that holds this rule's match, for messages. */
    public String matchKey() {
        return RwSplitSettings.RULE_PREFIX + name + ".match";
    }

    /** The same rule, matching the statements that open with the comment {@code source} (a resolved named query). */
    public ShapeRule asSource(String source) {
        return new ShapeRule(name, Match.SOURCE, source, consistency);
    }

    /** The rules of a settings map, in the order of their names. */
    static List<ShapeRule> from(Settings s) {
        TreeSet<String> names = new TreeSet<>();
        for (String key : s.keysWithPrefix(RwSplitSettings.RULE_PREFIX)) {
            String rest = key.substring(RwSplitSettings.RULE_PREFIX.length());
            int dot = rest.lastIndexOf('.');
            if (dot > 0) {
                names.add(rest.substring(0, dot));
            }
        }
        List<ShapeRule> rules = new ArrayList<>();
        for (String name : names) {
            String prefix = RwSplitSettings.RULE_PREFIX + name + ".";
            rules.add(new ShapeRule(name, prefix + "match", required(s, prefix + "match"), prefix + "route",
                    required(s, prefix + "route")));
        }
        return List.copyOf(rules);
    }

    private ShapeRule(String name, String matchKey, String matchText, String routeKey, String routeText) {
        this(name, match(matchKey, matchText), pattern(matchKey, matchText), consistency(routeKey, routeText));
    }

    private static String required(Settings s, String key) {
        String value = s.string(key, null);
        if (value == null || value.isBlank()) {
            throw new InvalidSettingException(key, value, "hibernate-rwsplit: setting '" + key + "' is missing: a rule"
                    + " needs both its match and its route", "a value");
        }
        return value.trim();
    }

    private static final String MATCH_FORMAT = "id:<12 hexadecimal digits>, source:<comment>, prefix:<SQL> or query:<named query>";
    private static final String ROUTE_FORMAT = "primary or consistency:<level>";

    private static Match match(String key, String text) {
        int colon = text.indexOf(':');
        String kind = colon < 0 ? "" : text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = colon < 0 ? "" : text.substring(colon + 1).trim();
        Match match = switch (kind) {
            case "id" -> Match.ID;
            case "source" -> Match.SOURCE;
            case "prefix" -> Match.PREFIX;
            case "query" -> Match.QUERY;
            default -> null;
        };
        if (match == null || value.isEmpty()) {
            throw invalid(key, text, MATCH_FORMAT);
        }
        if (match == Match.ID && !value.matches("[0-9a-f]{12}")) {
            throw invalid(key, text, MATCH_FORMAT + " (an id is 12 lower-case hexadecimal digits, as queryShapes() shows it)");
        }
        return match;
    }

    private static String pattern(String key, String text) {
        String value = text.substring(text.indexOf(':') + 1).trim();
        return match(key, text) == Match.PREFIX ? value.replaceAll("\\s+", " ").toLowerCase(Locale.ROOT) : value;
    }

    private static Consistency consistency(String key, String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("primary")) {
            return null;
        }
        if (t.regionMatches(true, 0, "consistency:", 0, "consistency:".length())) {
            try {
                return Consistency.parse(t.substring("consistency:".length()));
            }
            catch (IllegalArgumentException e) {
                throw new InvalidSettingException(key, text, "hibernate-rwsplit: invalid value '" + text + "' for setting '"
                        + key + "': " + e.getMessage(), ROUTE_FORMAT);
            }
        }
        throw invalid(key, text, ROUTE_FORMAT);
    }

    private static InvalidSettingException invalid(String key, String text, String expected) {
        return new InvalidSettingException(key, text, "hibernate-rwsplit: invalid value '" + text + "' for setting '" + key
                + "': expected " + expected, expected);
    }
}
