package io.rwsplit.internal.config;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What startup needs to know about a JDBC URL: whether it is well formed, and which server and database it
 * names, so that a replica that is really the primary is refused. Runs once per URL at startup.
 */
public final class JdbcUrls {

    /**
     * The server(s) and database a URL points at.
     *
     * @param hosts    {@code host:port} of each host, lower case, {@code localhost} as {@code 127.0.0.1}, in URL
     *                 order; empty for URLs without an authority (embedded databases)
     * @param database the database (for URLs without an authority: the whole URL up to its options)
     */
    public record Target(List<String> hosts, String database) {
    }

    private JdbcUrls() {
    }

    /**
     * The target of {@code url}, or {@code null} when its form is not one this method understands (such as
     * MySQL's {@code address=(host=...)} form): then nothing is compared.
     *
     * @throws IllegalArgumentException naming what is wrong when the URL is malformed (no {@code jdbc:} prefix,
     *                                  an empty or non-numeric port)
     */
    public static Target target(String url) {
        if (!url.startsWith("jdbc:") || url.indexOf(':', 5) < 0) {
            throw new IllegalArgumentException("it does not start with 'jdbc:<driver>:'");
        }
        int slashes = url.indexOf("//");
        if (slashes < 0) {
            return new Target(List.of(), upTo(url, ";?").toLowerCase(Locale.ROOT));
        }
        String scheme = url.substring(5, slashes);
        String rest = url.substring(slashes + 2);
        int end = indexOfAny(rest, "/?;");
        String authority = end < 0 ? rest : rest.substring(0, end);
        String database = end < 0 ? "" : upTo(rest.substring(end), "?");
        if (database.startsWith("/")) {
            database = database.substring(1);
        }
        if (authority.contains("(")) {
            return null;
        }
        List<String> hosts = new ArrayList<>();
        for (String host : authority.split(",")) {
            hosts.add(hostAndPort(host.substring(host.lastIndexOf('@') + 1), defaultPort(scheme)));
        }
        return new Target(List.copyOf(hosts), database);
    }

    /** Whether two URLs name the same server(s) and database; false when either cannot be compared. */
    public static boolean sameTarget(String a, String b) {
        try {
            Target ta = target(a);
            Target tb = target(b);
            return ta != null && ta.equals(tb);
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether a JDBC driver on the class path accepts {@code url}. */
    public static boolean driverAccepts(String url) {
        try {
            return DriverManager.getDriver(url) != null;
        }
        catch (SQLException e) {
            return false;
        }
    }

    private static String hostAndPort(String host, int defaultPort) {
        String name = host;
        String port = null;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("host '" + host + "' has no closing ']'");
            }
            name = host.substring(0, close + 1);
            if (close + 1 < host.length()) {
                if (host.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("host '" + host + "' is malformed");
                }
                port = host.substring(close + 2);
            }
        }
        else {
            int colon = host.indexOf(':');
            if (colon >= 0) {
                name = host.substring(0, colon);
                port = host.substring(colon + 1);
            }
        }
        int number = defaultPort;
        if (port != null) {
            try {
                number = Integer.parseInt(port);
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException("port '" + port + "' is not a number");
            }
            if (number < 1 || number > 65535) {
                throw new IllegalArgumentException("port " + number + " is out of range");
            }
        }
        name = name.toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.equals("localhost") || name.equals("[::1]")) {
            name = "127.0.0.1";
        }
        return name + ":" + number;
    }

    private static int defaultPort(String scheme) {
        String s = scheme.toLowerCase(Locale.ROOT);
        if (s.startsWith("mariadb") || s.startsWith("mysql")) {
            return 3306;
        }
        if (s.startsWith("postgresql")) {
            return 5432;
        }
        if (s.startsWith("sqlserver")) {
            return 1433;
        }
        return -1;
    }

    private static String upTo(String text, String stops) {
        int i = indexOfAny(text, stops);
        return i < 0 ? text : text.substring(0, i);
    }

    private static int indexOfAny(String text, String chars) {
        for (int i = 0; i < text.length(); i++) {
            if (chars.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
