package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The session settings that change what a query answers (time zone, SQL mode, character sets, isolation, division
 * precision; PostgreSQL's time zone, date and interval styles, search path and string literal rules), read with one
 * query per server, and how a replica's differ from the primary's. A replica read that runs under another time zone
 * answers differently, silently: the monitor compares each replica's settings with the primary's once, as the
 * application's connections get them (after the pools' init SQL), and says what differs.
 */
public final class SessionSettingsCheck {

    /** One setting that differs: its name and each server's value ({@code NULL} for a null one). */
    public record Difference(String setting, String primary, String replica) {

        @Override
        public String toString() {
            return setting + ": primary=" + primary + ", replica=" + replica;
        }
    }

    private static final String[] MARIADB = {"time_zone", "sql_mode", "character_set_client", "character_set_connection",
            "character_set_results", "collation_connection", "transaction_isolation", "div_precision_increment"};
    private static final String MARIADB_SQL = "select @@session.time_zone, @@session.sql_mode, @@character_set_client,"
            + " @@character_set_connection, @@character_set_results, @@collation_connection, %s, @@div_precision_increment";
    private static final String[] POSTGRESQL = {"TimeZone", "DateStyle", "search_path", "standard_conforming_strings",
            "IntervalStyle"};
    private static final String POSTGRESQL_SQL = "select current_setting('TimeZone'), current_setting('DateStyle'),"
            + " current_setting('search_path'), current_setting('standard_conforming_strings'),"
            + " current_setting('IntervalStyle')";
    /** MariaDB and MySQL: unknown system variable ({@code @@transaction_isolation} before MariaDB 11.1). */
    private static final int UNKNOWN_SYSTEM_VARIABLE = 1193;

    private SessionSettingsCheck() {
    }

    /** Whether {@link #read} knows the settings of this database. */
    public static boolean knows(GtidReader.Flavour flavour) {
        return flavour == GtidReader.Flavour.MARIADB || flavour == GtidReader.Flavour.MYSQL
                || flavour == GtidReader.Flavour.POSTGRESQL;
    }

    /** The session's settings by name, in a fixed order; empty for a database this check does not know. */
    public static Map<String, String> read(Connection c, GtidReader.Flavour flavour) throws SQLException {
        return switch (flavour) {
            case MARIADB, MYSQL -> {
                // the name the server has first (asking for the other one makes the driver log a WARN), the other after
                java.sql.DatabaseMetaData md = c.getMetaData();
                boolean old = flavour == GtidReader.Flavour.MARIADB && md != null
                        && before11dot1(md.getDatabaseProductVersion());
                String first = old ? "@@session.tx_isolation" : "@@session.transaction_isolation";
                String second = old ? "@@session.transaction_isolation" : "@@session.tx_isolation";
                try {
                    yield row(c, String.format(MARIADB_SQL, first), MARIADB);
                }
                catch (SQLException e) {
                    if (e.getErrorCode() != UNKNOWN_SYSTEM_VARIABLE) {
                        throw e;
                    }
                    yield row(c, String.format(MARIADB_SQL, second), MARIADB);
                }
            }
            case POSTGRESQL -> row(c, POSTGRESQL_SQL, POSTGRESQL);
            default -> Map.of();
        };
    }

    /** Whether a MariaDB version ({@code 10.11.19-MariaDB...}) is older than 11.1, which added {@code transaction_isolation}. */
    static boolean before11dot1(String version) {
        if (version == null) {
            return false;
        }
        String v = version.startsWith("5.5.5-") ? version.substring("5.5.5-".length()) : version;   // old drivers' prefix
        String[] parts = v.split("[.-]", 3);
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major < 11 || (major == 11 && minor < 1);
        }
        catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The settings of the sessions behind {@code primary} and {@code replica} that differ ({@link #differences}), read
     * on both ({@link #read}) leaving no transaction open on either.
     */
    public static List<Difference> compare(Connection primary, Connection replica, GtidReader.Flavour flavour)
            throws SQLException {
        return differences(readAndEnd(primary, flavour), readAndEnd(replica, flavour));
    }

    private static Map<String, String> readAndEnd(Connection c, GtidReader.Flavour flavour) throws SQLException {
        Map<String, String> settings = read(c, flavour);
        if (!c.getAutoCommit()) {
            c.rollback();
        }
        return settings;
    }

    /** The settings whose values differ, in {@code primary}'s order; a setting only one side has is not compared. */
    public static List<Difference> differences(Map<String, String> primary, Map<String, String> replica) {
        List<Difference> differences = new ArrayList<>();
        primary.forEach((setting, value) -> {
            if (replica.containsKey(setting) && !Objects.equals(value, replica.get(setting))) {
                differences.add(new Difference(setting, shown(value), shown(replica.get(setting))));
            }
        });
        return List.copyOf(differences);
    }

    /**
     * The warning for a replica whose settings differ, naming each difference and what sets them alike.
     *
     * @param fix where the replica's sessions are configured: the replica pool's init SQL setting, or its DataSource
     */
    public static String warning(String label, String replica, List<Difference> differences, String fix) {
        StringBuilder message = new StringBuilder("hibernate-rwsplit [").append(label).append("]: replica '").append(replica)
                .append("' answers with other session settings than the primary: ");
        for (int i = 0; i < differences.size(); i++) {
            message.append(i == 0 ? "" : "; ").append(differences.get(i));
        }
        return message.append(". Reads it serves may answer differently (times, text, rounding): set the replica's"
                + " sessions like the primary's with ").append(fix).append(", or in the servers' configuration").toString();
    }

    private static String shown(String value) {
        return value == null ? "NULL" : value;
    }

    private static Map<String, String> row(Connection c, String sql, String[] names) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            Map<String, String> settings = new LinkedHashMap<>();
            if (rs.next()) {
                for (int i = 0; i < names.length; i++) {
                    settings.put(names[i], rs.getString(i + 1));
                }
            }
            return java.util.Collections.unmodifiableMap(settings);
        }
    }
}
