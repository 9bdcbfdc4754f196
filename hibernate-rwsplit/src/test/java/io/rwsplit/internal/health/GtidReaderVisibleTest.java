package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.JdbcFakes;

/** The stale-read audit's position on MariaDB: the replica's own GTID table where it may be read, else the variable. */
class GtidReaderVisibleTest {

    /** A MariaDB replica connection answering the usability probe with {@code usable} (null: no row), recording queries. */
    private static Connection mariadb(String[] usable, String table, String variable, List<String> asked) {
        DatabaseMetaData md = JdbcFakes.fake(DatabaseMetaData.class,
                (name, args) -> "getDatabaseProductName".equals(name) ? "MariaDB" : null);
        Statement st = JdbcFakes.fake(Statement.class, (name, args) -> {
            if (!"executeQuery".equals(name)) {
                return null;
            }
            String sql = (String) args[0];
            asked.add(sql);
            if (sql.equals(GtidReader.APPLIED_TABLE_USABLE)) {
                return usable == null ? JdbcFakes.fake(ResultSet.class, (n, a) -> "next".equals(n) ? false : null)
                        : JdbcFakes.oneRow(usable);
            }
            return JdbcFakes.oneRow(sql.equals(GtidReader.APPLIED_TABLE) ? table : variable);
        });
        return JdbcFakes.fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> md;
            case "createStatement" -> st;
            default -> null;
        });
    }

    @Test
    void aReadableTransactionalTableIsReadInsteadOfTheVariable() throws Exception {
        List<String> asked = new ArrayList<>();
        Connection c = mariadb(new String[] {"", "InnoDB"}, "0-1-12", "0-1-11", asked);
        GtidReader reader = new GtidReader();
        assertEquals(GtidPosition.parseMariaDb("0-1-12"), reader.visible(c));
        assertEquals(GtidPosition.parseMariaDb("0-1-12"), reader.visible(c));
        assertEquals(List.of(GtidReader.APPLIED_TABLE_USABLE, GtidReader.APPLIED_TABLE, GtidReader.APPLIED_TABLE), asked,
                "the probe is asked once");
    }

    @Test
    void aUserWithoutThePrivilegeReadsTheVariableAndIsNotAskedAgain() throws Exception {
        List<String> asked = new ArrayList<>();
        Connection c = mariadb(null, "0-1-12", "0-1-11", asked);
        GtidReader reader = new GtidReader();
        assertEquals(GtidPosition.parseMariaDb("0-1-11"), reader.visible(c));
        assertEquals(GtidPosition.parseMariaDb("0-1-11"), reader.visible(c));
        assertEquals(List.of(GtidReader.APPLIED_TABLE_USABLE, "select @@gtid_slave_pos", "select @@gtid_slave_pos"), asked);
    }

    @Test
    void aTableSpreadOverEnginesOrNotTransactionalIsNotUsed() throws Exception {
        assertEquals(GtidPosition.parseMariaDb("0-1-11"),
                new GtidReader().visible(mariadb(new String[] {"InnoDB,MyISAM", "InnoDB"}, "0-1-12", "0-1-11", new ArrayList<>())));
        assertEquals(GtidPosition.parseMariaDb("0-1-11"),
                new GtidReader().visible(mariadb(new String[] {"", "MyISAM"}, "0-1-12", "0-1-11", new ArrayList<>())));
    }

    @Test
    void anEmptyTableFallsBackToTheVariable() throws Exception {
        assertEquals(GtidPosition.parseMariaDb("0-1-11"),
                new GtidReader().visible(mariadb(new String[] {"", "InnoDB"}, null, "0-1-11", new ArrayList<>())));
    }
}
