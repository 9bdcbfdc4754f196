package io.rwsplit.internal.health;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.SessionSettingsCheck.Difference;

/**
 * The comparison of a replica's session settings with the primary's: what differs, in which words, and how the
 * settings are read (one query per server, MariaDB's older isolation variable when the newer is unknown).
 */
class SessionSettingsCheckTest {

    private static Map<String, String> settings(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void reportsEachSettingWhoseValuesDifferInThePrimarysOrder() {
        Map<String, String> primary = settings("time_zone", "SYSTEM", "sql_mode", "STRICT_TRANS_TABLES",
                "character_set_client", "utf8mb4", "div_precision_increment", "4");
        Map<String, String> replica = settings("div_precision_increment", "8", "character_set_client", "utf8mb4",
                "sql_mode", "STRICT_TRANS_TABLES", "time_zone", "+05:00");
        assertEquals(List.of(new Difference("time_zone", "SYSTEM", "+05:00"), new Difference("div_precision_increment", "4", "8")),
                SessionSettingsCheck.differences(primary, replica));
    }

    @Test
    void serversWithTheSameSettingsDifferInNothing() {
        Map<String, String> both = settings("TimeZone", "UTC", "DateStyle", "ISO, MDY");
        assertEquals(List.of(), SessionSettingsCheck.differences(both, new LinkedHashMap<>(both)));
    }

    @Test
    void aSettingOnlyOneServerReportsIsNotCompared() {
        assertEquals(List.of(), SessionSettingsCheck.differences(settings("time_zone", "SYSTEM", "extra", "a"),
                settings("time_zone", "SYSTEM")));
    }

    @Test
    void aNullValueIsComparedAndShownAsNull() {
        assertEquals(List.of(new Difference("character_set_results", "utf8mb4", "NULL")),
                SessionSettingsCheck.differences(settings("character_set_results", "utf8mb4"),
                        settings("character_set_results", null)));
        assertEquals(List.of(), SessionSettingsCheck.differences(settings("character_set_results", null),
                settings("character_set_results", null)));
    }

    @Test
    void theWarningNamesTheUnitTheReplicaEachDifferenceAndTheFix() {
        String warning = SessionSettingsCheck.warning("default", "r1", List.of(
                new Difference("time_zone", "SYSTEM", "+05:00"), new Difference("sql_mode", "ANSI", "")),
                "the replica pools' 'hibernate.rwsplit.pool.connectionInitSql'");
        assertTrue(warning.startsWith("hibernate-rwsplit [default]: replica 'r1' answers with other session settings"
                + " than the primary: time_zone: primary=SYSTEM, replica=+05:00; sql_mode: primary=ANSI, replica="), warning);
        assertTrue(warning.contains("'hibernate.rwsplit.pool.connectionInitSql'"), warning);
        assertTrue(warning.contains("the servers' configuration"), warning);
    }

    @Test
    void readsMariaDbsIsolationUnderItsOlderNameWhenTheServerDoesNotKnowTheNewOne() throws SQLException {
        List<String> asked = new ArrayList<>();
        Connection c = connection(sql -> {
            asked.add(sql);
            if (sql.contains("@@session.transaction_isolation")) {
                throw new SQLSyntaxErrorException("Unknown system variable 'transaction_isolation'", "HY000", 1193);
            }
            return new String[] {"SYSTEM", "STRICT_TRANS_TABLES", "utf8mb4", "utf8mb4", null, "utf8mb4_general_ci",
                    "REPEATABLE-READ", "4"};
        });
        Map<String, String> read = SessionSettingsCheck.read(c, GtidReader.Flavour.MARIADB);
        assertEquals(2, asked.size());
        assertTrue(asked.get(1).contains("@@session.tx_isolation"), asked.get(1));
        assertEquals(List.of("time_zone", "sql_mode", "character_set_client", "character_set_connection",
                "character_set_results", "collation_connection", "transaction_isolation", "div_precision_increment"),
                List.copyOf(read.keySet()));
        assertEquals("REPEATABLE-READ", read.get("transaction_isolation"));
        assertEquals(null, read.get("character_set_results"));
    }

    @Test
    void aMariaDbOlderThan11dot1IsAskedForItsIsolationUnderTheOldNameFirstSoTheDriverLogsNoError() throws SQLException {
        for (String version : List.of("10.11.19-MariaDB-0+deb12u1-log", "5.5.5-10.6.2-MariaDB", "11.4.2-MariaDB")) {
            List<String> asked = new ArrayList<>();
            Connection c = connection(sql -> {
                asked.add(sql);
                return new String[] {"SYSTEM", "", "utf8mb4", "utf8mb4", "utf8mb4", "utf8mb4_general_ci", "REPEATABLE-READ", "4"};
            }, version);
            assertEquals("REPEATABLE-READ", SessionSettingsCheck.read(c, GtidReader.Flavour.MARIADB).get("transaction_isolation"));
            assertEquals(1, asked.size(), version);
            assertTrue(asked.get(0).contains(version.startsWith("11.4") ? "@@session.transaction_isolation"
                    : "@@session.tx_isolation"), version + ": " + asked.get(0));
        }
    }

    @Test
    void readsPostgresqlsSettingsWithOneQuery() throws SQLException {
        List<String> asked = new ArrayList<>();
        Connection c = connection(sql -> {
            asked.add(sql);
            return new String[] {"Asia/Kolkata", "ISO, MDY", "\"$user\", public", "on", "postgres"};
        });
        Map<String, String> read = SessionSettingsCheck.read(c, GtidReader.Flavour.POSTGRESQL);
        assertEquals(1, asked.size());
        assertEquals(Map.of("TimeZone", "Asia/Kolkata", "DateStyle", "ISO, MDY", "search_path", "\"$user\", public",
                "standard_conforming_strings", "on", "IntervalStyle", "postgres"), read);
    }

    @Test
    void aDatabaseTheCheckDoesNotKnowHasNoSettingsToCompare() throws SQLException {
        assertFalse(SessionSettingsCheck.knows(GtidReader.Flavour.NONE));
        assertTrue(SessionSettingsCheck.knows(GtidReader.Flavour.MYSQL));
        assertEquals(Map.of(), SessionSettingsCheck.read(connection(sql -> {
            throw new AssertionError("nothing is asked");
        }), GtidReader.Flavour.NONE));
    }

    private interface Rows {
        String[] row(String sql) throws SQLException;
    }

    /** A connection whose queries answer one row, {@code rows}' answer to the query. */
    private static Connection connection(Rows rows) {
        return connection(rows, null);
    }

    /** As {@link #connection(Rows)}, of a server that reports {@code version} (null: no metadata). */
    private static Connection connection(Rows rows, String version) {
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> version == null ? null : fake(java.sql.DatabaseMetaData.class,
                    (mName, mArgs) -> mName.equals("getDatabaseProductVersion") ? version : null);
            case "createStatement" -> fake(Statement.class, (sName, sArgs) -> switch (sName) {
                case "executeQuery" -> resultSet(rows.row((String) sArgs[0]));
                default -> null;
            });
            default -> null;
        });
    }

    private static ResultSet resultSet(String[] row) {
        return io.rwsplit.testing.JdbcFakes.oneRow(row);
    }
}
