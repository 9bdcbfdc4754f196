package io.rwsplit.config;

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
