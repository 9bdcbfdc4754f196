package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/**
 * What replica pools take from the primary's JDBC URL: the driver properties that shape a session, as written, never
 * where or as whom to connect; the replica's own value wins.
 */
class UrlSessionPropertiesTest {

    private static final Properties NONE = new Properties();

    @Test
    void aMariaDbReplicaInheritsOnlyTheSessionPropertiesOfThePrimaryUrl() {
        String primary = "jdbc:mariadb://db1:3306/app?user=app&password=secret&sessionVariables=time_zone='+03:00',sql_mode='ANSI'"
                + "&connectionTimeZone=Europe/Berlin&sslMode=verify-full&socketTimeout=5000&forceConnectionTimeZoneToSession=true"
                + "&connectionCollation=utf8mb4_bin";
        assertEquals(Map.of("sessionVariables", "time_zone='+03:00',sql_mode='ANSI'", "connectionTimeZone", "Europe/Berlin",
                        "forceConnectionTimeZoneToSession", "true", "connectionCollation", "utf8mb4_bin"),
                UrlSessionProperties.inherited(primary, "jdbc:mariadb://db2:3306/app", NONE));
    }

    @Test
    void aMySqlReplicaInheritsTheConnectorJSessionProperties() {
        String primary = "jdbc:mysql://db1/app?serverTimezone=UTC&characterEncoding=UTF-8&loadBalanceHosts=true"
                + "&useSSL=true&allowPublicKeyRetrieval=true";
        assertEquals(Map.of("serverTimezone", "UTC", "characterEncoding", "UTF-8"),
                UrlSessionProperties.inherited(primary, "jdbc:mysql://db2/app", NONE));
    }

    @Test
    void aPostgresqlStandbyNeverInheritsWhereOrAsWhomToConnect() {
        String primary = "jdbc:postgresql://db1,db2/app?targetServerType=primary&loadBalanceHosts=true&ssl=true"
                + "&sslmode=require&user=app&password=secret&ApplicationName=shop&options=-c%20TimeZone=Asia/Kolkata"
                + "&currentSchema=shop&stringtype=unspecified";
        assertEquals(Map.of("options", "-c%20TimeZone=Asia/Kolkata", "currentSchema", "shop", "stringtype", "unspecified"),
                UrlSessionProperties.inherited(primary, "jdbc:postgresql://db3/app", NONE));
    }

    @Test
    void thePropertiesKeepThePrimaryUrlsOrderAndSpelling() {
        Map<String, String> inherited = UrlSessionProperties.inherited(
                "jdbc:postgresql://db1/app?stringtype=unspecified&currentSchema=a&options=-c%20search_path%3Da",
                "jdbc:postgresql://db3/app", NONE);
        assertEquals("[stringtype, currentSchema, options]", inherited.keySet().toString());
        assertEquals("jdbc:postgresql://db3/app?stringtype=unspecified&currentSchema=a&options=-c%20search_path%3Da",
                UrlSessionProperties.with("jdbc:postgresql://db3/app", inherited), "appended as written: decoded alike");
    }

    @Test
    void theReplicaUrlsOwnValueWins() {
        String primary = "jdbc:mariadb://db1/app?sessionVariables=time_zone='+03:00'&connectionTimeZone=UTC";
        String replica = "jdbc:mariadb://db2/app?SESSIONVARIABLES=time_zone='+00:00'";
        Map<String, String> inherited = UrlSessionProperties.inherited(primary, replica, NONE);
        assertEquals(Map.of("connectionTimeZone", "UTC"), inherited);
        assertEquals("jdbc:mariadb://db2/app?SESSIONVARIABLES=time_zone='+00:00'&connectionTimeZone=UTC",
                UrlSessionProperties.with(replica, inherited));
    }

    @Test
    void aDriverPropertyOfTheReplicaPoolWins() {
        Properties given = new Properties();
        given.setProperty("currentSchema", "reporting");
        assertEquals(Map.of("stringtype", "unspecified"), UrlSessionProperties.inherited(
                "jdbc:postgresql://db1/app?currentSchema=shop&stringtype=unspecified", "jdbc:postgresql://db2/app", given));
    }

    @Test
    void urlsOfOtherDriversOrNoPrimaryUrlInheritNothing() {
        assertEquals(Map.of(), UrlSessionProperties.inherited("jdbc:mariadb://db1/app?sessionVariables=a=1",
                "jdbc:postgresql://db2/app", NONE));
        assertEquals(Map.of(), UrlSessionProperties.inherited(null, "jdbc:mariadb://db2/app", NONE));
        assertEquals(Map.of(), UrlSessionProperties.inherited("jdbc:h2:mem:app;TIME ZONE=UTC", "jdbc:h2:mem:r", NONE));
        assertEquals(Map.of(), UrlSessionProperties.inherited("jdbc:mariadb://db1/app", "jdbc:mariadb://db2/app", NONE));
    }

    @Test
    void appendedPropertiesStartOrContinueTheQuery() {
        Map<String, String> one = Map.of("stringtype", "unspecified");
        assertEquals("jdbc:postgresql://db/app?stringtype=unspecified", UrlSessionProperties.with("jdbc:postgresql://db/app", one));
        assertEquals("jdbc:postgresql://db/app?ssl=true&stringtype=unspecified",
                UrlSessionProperties.with("jdbc:postgresql://db/app?ssl=true", one));
        assertEquals("jdbc:postgresql://db/app?stringtype=unspecified", UrlSessionProperties.with("jdbc:postgresql://db/app?", one));
        assertEquals("jdbc:postgresql://db/app", UrlSessionProperties.with("jdbc:postgresql://db/app", Map.of()));
    }
}
