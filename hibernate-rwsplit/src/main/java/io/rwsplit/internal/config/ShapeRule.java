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
 * (the primary, a consistency level of their own, or the replicas of one tier). Validated at startup; matched once
 * per distinct SQL string.
 *
 * @param name        the rule's name, from its keys
 * @param match       how it matches
 * @param pattern     the id, the source, the prefix (lower case for a prefix) or the named query's name
 * @param consistency the level of the reads it matches, or null: the session's (with a tier), else the primary
 * @param tier        the tier of the replicas that serve the reads it matches, or 0 (none named)
 */
public record ShapeRule(String name, Match match, String pattern, Consistency consistency, int tier) {

    /** A rule that names no tier. */
    public ShapeRule(String name, Match match, String pattern, Consistency consistency) {
        this(name, match, pattern, consistency, 0);
    }

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
        return consistency == null && tier == 0;
    }

    /** The key that holds this rule's route, for messages. */
    public String routeKey() {
        return RwSplitSettings.RULE_PREFIX + name + ".route";
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
        return new ShapeRule(name, Match.SOURCE, source, consistency, tier);
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
        this(name, match(matchKey, matchText), pattern(matchKey, matchText), consistency(routeKey, routeText),
                tier(routeKey, routeText));
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
    private static final String ROUTE_FORMAT = "primary, consistency:<level> or tier:<n>";

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

    /** The tier of a route {@code tier:<n>}, else 0. */
    private static int tier(String key, String text) {
        String t = text.trim();
        if (!t.regionMatches(true, 0, "tier:", 0, "tier:".length())) {
            return 0;
        }
        String n = t.substring("tier:".length()).trim();
        int tier;
        try {
            tier = Integer.parseInt(n);
        }
        catch (NumberFormatException e) {
            tier = 0;
        }
        if (tier < 1 || !n.matches("[0-9]+")) {
            throw invalid(key, text, ROUTE_FORMAT + " (a tier is a whole number, at least 1, as a replica's tier setting)");
        }
        return tier;
    }

    private static Consistency consistency(String key, String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("primary") || t.regionMatches(true, 0, "tier:", 0, "tier:".length())) {
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
