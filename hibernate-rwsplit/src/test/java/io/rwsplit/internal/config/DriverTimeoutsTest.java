package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;

import com.mysql.cj.conf.PropertyDefinitions;
import com.mysql.cj.conf.PropertyKey;

/** The timeouts reach each driver in the unit it documents, as the driver itself parses them. */
class DriverTimeoutsTest {

    @Test
    void pgjdbcGetsWholeSecondsRoundedUp() throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:5432/app";
        assertTrue(PGProperty.CONNECT_TIMEOUT.getDescription().toLowerCase(Locale.ROOT).contains("seconds"),
                PGProperty.CONNECT_TIMEOUT.getDescription());
        assertTrue(PGProperty.SOCKET_TIMEOUT.getDescription().toLowerCase(Locale.ROOT).contains("seconds"),
                PGProperty.SOCKET_TIMEOUT.getDescription());
        Properties parsed = org.postgresql.Driver.parseURL(url, DriverTimeouts.forUrl(url, Duration.ofSeconds(1)));
        assertEquals(1, PGProperty.CONNECT_TIMEOUT.getInt(parsed));
        assertEquals(1, PGProperty.SOCKET_TIMEOUT.getInt(parsed));
        assertEquals(1, PGProperty.LOGIN_TIMEOUT.getInt(parsed));
        parsed = org.postgresql.Driver.parseURL(url, DriverTimeouts.forUrl(url, Duration.ofMillis(1500)));
        assertEquals(2, PGProperty.CONNECT_TIMEOUT.getInt(parsed), "1.5 s rounds up");
        parsed = org.postgresql.Driver.parseURL(url, DriverTimeouts.forUrl(url, Duration.ofMillis(100)));
        assertEquals(1, PGProperty.CONNECT_TIMEOUT.getInt(parsed), "never 0, which pgjdbc reads as no timeout");
    }

    @Test
    void mariaDbConnectorGetsMilliseconds() throws SQLException {
        String url = "jdbc:mariadb://127.0.0.1:3306/app";
        org.mariadb.jdbc.Configuration conf = org.mariadb.jdbc.Configuration.parse(url,
                DriverTimeouts.forUrl(url, Duration.ofMillis(1500)));
        assertEquals(1500, conf.connectTimeout());
        assertEquals(1500, conf.socketTimeout());
    }

    @Test
    void mysqlConnectorGetsMilliseconds() {
        Properties props = DriverTimeouts.forUrl("jdbc:mysql://127.0.0.1:3306/app", Duration.ofMillis(1500));
        assertEquals("1500", props.getProperty("connectTimeout"));
        assertEquals("1500", props.getProperty("socketTimeout"));
        for (PropertyKey key : new PropertyKey[] {PropertyKey.connectTimeout, PropertyKey.socketTimeout}) {
            String doc = PropertyDefinitions.getPropertyDefinition(key).getDescription().toLowerCase(Locale.ROOT);
            assertTrue(doc.contains("milliseconds") || doc.contains("ms"), key + ": " + doc);
        }
    }

    @Test
    void otherDriversGetNoProperty() {
        assertEquals(new Properties(), DriverTimeouts.forUrl("jdbc:h2:mem:x", Duration.ofSeconds(1)));
        assertEquals(new Properties(), DriverTimeouts.forUrl(null, Duration.ofSeconds(1)));
    }

    @Test
    void connectTimeoutsLeaveTheSocketAloneAndYieldToTheUsersOwn() throws SQLException {
        String url = "jdbc:mariadb://127.0.0.1:3306/app";
        Properties props = DriverTimeouts.connectForUrl(url, Duration.ofMillis(2000), new Properties());
        assertEquals("2000", props.getProperty("connectTimeout"));
        assertEquals(null, props.getProperty("socketTimeout"), "a long report must still run: no socket timeout");
        assertEquals(2000, org.mariadb.jdbc.Configuration.parse(url, props).connectTimeout());
        assertTrue(DriverTimeouts.connectForUrl(url + "?user=a&ConnectTimeout=9000", Duration.ofMillis(2000),
                new Properties()).isEmpty(), "set in the URL");
        Properties given = new Properties();
        given.setProperty("connectTimeout", "9000");
        assertTrue(DriverTimeouts.connectForUrl(url, Duration.ofMillis(2000), given).isEmpty(), "set as a property");

        String pg = "jdbc:postgresql://127.0.0.1:5432/app?loginTimeout=30";
        Properties pgProps = DriverTimeouts.connectForUrl(pg, Duration.ofMillis(2000), new Properties());
        assertEquals("2", pgProps.getProperty("connectTimeout"));
        assertEquals(null, pgProps.getProperty("loginTimeout"), "the URL's own");
        assertEquals(null, pgProps.getProperty("socketTimeout"));
        Properties parsed = org.postgresql.Driver.parseURL(pg, pgProps);
        assertEquals(2, PGProperty.CONNECT_TIMEOUT.getInt(parsed));
        assertEquals(30, PGProperty.LOGIN_TIMEOUT.getInt(parsed));
    }
}
