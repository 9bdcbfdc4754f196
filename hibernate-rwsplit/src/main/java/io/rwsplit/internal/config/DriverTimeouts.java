package io.rwsplit.internal.config;

import java.time.Duration;
import java.util.Properties;

/**
 * Connection properties that bound how long a driver waits, in that driver's own units: MariaDB Connector/J and
 * MySQL Connector/J read {@code connectTimeout} and {@code socketTimeout} in milliseconds; pgjdbc reads
 * {@code connectTimeout}, {@code socketTimeout} and {@code loginTimeout} in whole seconds, where 0 means no
 * timeout, so a timeout is rounded up to whole seconds, at least 1. Other drivers get no property (the caller
 * then relies on {@link java.sql.Connection#setNetworkTimeout}).
 */
public final class DriverTimeouts {

    private DriverTimeouts() {
    }

    /**
     * The connect timeout properties of {@code url}'s driver for {@code timeout} (pgjdbc: {@code connectTimeout} and
     * {@code loginTimeout}; MariaDB, MySQL: {@code connectTimeout}), leaving out any that {@code url} or
     * {@code given} already sets (in any case): the user's own value wins. Empty for a driver not listed above.
     */
    public static Properties connectForUrl(String url, Duration timeout, Properties given) {
        Properties props = forUrl(url, timeout);
        props.remove("socketTimeout");
        for (String key : props.stringPropertyNames()) {
            if (userSets(url, given, key)) {
                props.remove(key);
            }
        }
        return props;
    }

    /**
     * The socket timeout property for a replica connection of {@code url}'s driver, for a driver that cannot abort a
     * read in flight: MariaDB Connector/J ({@code socketTimeout}, milliseconds), whose {@code abort} waits for the
     * reading thread's socket lock before it closes the socket. Empty for other drivers (pgjdbc and MySQL Connector/J
     * close the socket at once), and when {@code url} or {@code given} sets {@code socketTimeout} already.
     */
    public static Properties readForUrl(String url, Duration timeout, Properties given) {
        Properties props = new Properties();
        if (url == null || !url.startsWith("jdbc:mariadb:")) {
            return props;
        }
        if (userSets(url, given, "socketTimeout")) {
            return props;
        }
        props.setProperty("socketTimeout", Long.toString(Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()))));
        return props;
    }

    /** Whether {@code url}'s query or {@code given} sets {@code key} (in any case). */
    private static boolean userSets(String url, Properties given, String key) {
        String query = url == null || url.indexOf('?') < 0 ? "" : url.substring(url.indexOf('?') + 1);
        return setsOption(query, key) || given.stringPropertyNames().stream().anyMatch(key::equalsIgnoreCase);
    }

    /** Whether a URL's query ({@code a=1&b=2}; MariaDB also accepts {@code ;}) sets {@code key}. */
    private static boolean setsOption(String query, String key) {
        for (String option : query.split("[&;]")) {
            int eq = option.indexOf('=');
            if ((eq < 0 ? option : option.substring(0, eq)).trim().equalsIgnoreCase(key)) {
                return true;
            }
        }
        return false;
    }

    /** The timeout properties of {@code url}'s driver for {@code timeout}; empty for a driver not listed above. */
    public static Properties forUrl(String url, Duration timeout) {
        Properties props = new Properties();
        if (url == null) {
            return props;
        }
        if (url.startsWith("jdbc:postgresql:")) {
            String seconds = Long.toString(Math.max(1, (timeout.toMillis() + 999) / 1000));
            props.setProperty("connectTimeout", seconds);
            props.setProperty("socketTimeout", seconds);
            props.setProperty("loginTimeout", seconds);
        }
        else if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
            String millis = Long.toString(Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
            props.setProperty("connectTimeout", millis);
            props.setProperty("socketTimeout", millis);
        }
        return props;
    }
}
