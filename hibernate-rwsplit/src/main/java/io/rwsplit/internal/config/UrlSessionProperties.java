package io.rwsplit.internal.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The driver properties of the primary's JDBC URL that shape its sessions (time zone, character set, session
 * variables, schema), which replica pools built from URLs inherit so that a replica read answers as the primary's
 * would. Only an explicit allow-list is inherited, never what says where to connect or as whom (host, port,
 * database, user, password, SSL, failover and load balancing):
 * <ul>
 * <li>MariaDB Connector/J and MySQL Connector/J ({@code jdbc:mariadb:}, {@code jdbc:mysql:}): {@code sessionVariables},
 * {@code connectionTimeZone}, {@code serverTimezone}, {@code timezone} (MariaDB Connector/J before 3.4),
 * {@code forceConnectionTimeZoneToSession}, {@code characterEncoding}, {@code connectionCollation};</li>
 * <li>pgjdbc ({@code jdbc:postgresql:}): {@code options}, {@code currentSchema}, {@code stringtype}.</li>
 * </ul>
 * Both URLs must be of the same driver family. The properties are read from the URL's query, {@code ?a=b&c=d} (the
 * syntax of all three drivers; MySQL's {@code address=(key=value)} host properties are not read), and copied as
 * written, so that the replica's driver decodes them as the primary's did. A property the replica URL sets, or that
 * is set as a driver property of the replica pool, keeps the replica's own value (names compared ignoring case).
 */
public final class UrlSessionProperties {

    private static final List<String> MYSQL = List.of("sessionVariables", "connectionTimeZone", "serverTimezone",
            "timezone", "forceConnectionTimeZoneToSession", "characterEncoding", "connectionCollation");
    private static final List<String> POSTGRESQL = List.of("options", "currentSchema", "stringtype");

    private UrlSessionProperties() {
    }

    /**
     * The session properties of {@code primaryUrl} a pool for {@code replicaUrl} inherits, by name, as written in the
     * primary URL (not decoded), in its order; empty when either URL is null or they are of different drivers.
     *
     * @param given the driver properties the replica pool sets itself; they win as the replica URL's do
     */
    public static Map<String, String> inherited(String primaryUrl, String replicaUrl, Properties given) {
        if (primaryUrl == null || replicaUrl == null) {
            return Map.of();
        }
        List<String> allowed = allowList(primaryUrl);
        if (allowed.isEmpty() || !allowed.equals(allowList(replicaUrl))) {
            return Map.of();
        }
        Map<String, String> own = new LinkedHashMap<>();
        query(replicaUrl).forEach((key, value) -> own.put(key.toLowerCase(Locale.ROOT), value));
        for (String name : given.stringPropertyNames()) {
            own.put(name.toLowerCase(Locale.ROOT), "");
        }
        Map<String, String> inherited = new LinkedHashMap<>();
        query(primaryUrl).forEach((key, value) -> {
            String lower = key.toLowerCase(Locale.ROOT);
            if (!own.containsKey(lower) && allowed.stream().anyMatch(a -> a.equalsIgnoreCase(key))) {
                inherited.put(key, value);
            }
        });
        return inherited;
    }

    /** {@code url} with {@code properties} appended to its query, as written. */
    public static String with(String url, Map<String, String> properties) {
        if (properties.isEmpty()) {
            return url;
        }
        StringBuilder b = new StringBuilder(url);
        int q = url.indexOf('?');
        char separator = q < 0 ? '?' : url.endsWith("?") || url.endsWith("&") ? 0 : '&';
        for (Map.Entry<String, String> e : properties.entrySet()) {
            if (separator != 0) {
                b.append(separator);
            }
            b.append(e.getKey());
            if (e.getValue() != null) {
                b.append('=').append(e.getValue());
            }
            separator = '&';
        }
        return b.toString();
    }

    /** The query parameters of {@code url} ({@code ?a=b&c=d}) by name, as written; a name without {@code =} has null. */
    static Map<String, String> query(String url) {
        int q = url.indexOf('?');
        Map<String, String> parameters = new LinkedHashMap<>();
        if (q < 0) {
            return parameters;
        }
        for (String pair : url.substring(q + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = (eq < 0 ? pair : pair.substring(0, eq)).trim();
            if (!key.isEmpty()) {
                parameters.put(key, eq < 0 ? null : pair.substring(eq + 1));
            }
        }
        return parameters;
    }

    private static List<String> allowList(String url) {
        String scheme = url.toLowerCase(Locale.ROOT);
        if (scheme.startsWith("jdbc:mariadb:") || scheme.startsWith("jdbc:mysql:")) {
            return MYSQL;
        }
        if (scheme.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        return List.of();
    }
}
