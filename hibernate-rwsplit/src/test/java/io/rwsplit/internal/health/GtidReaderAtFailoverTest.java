package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.JdbcFakes;

/**
 * The new primary's position read when a failover is seen, the base that writes committed before it require: on
 * PostgreSQL the WAL insert position on its timeline (an asynchronous commit made there just before may not be written
 * yet), as a standby can reach it.
 */
class GtidReaderAtFailoverTest {

    /** A PostgreSQL primary connection answering every query with {@code row}, recording the queries. */
    private static Connection postgres(List<String> asked, String... row) {
        DatabaseMetaData md = JdbcFakes.fake(DatabaseMetaData.class,
                (name, args) -> "getDatabaseProductName".equals(name) ? "PostgreSQL" : null);
        Statement st = JdbcFakes.fake(Statement.class, (name, args) -> {
            if (!"executeQuery".equals(name)) {
                return null;
            }
            asked.add((String) args[0]);
            return JdbcFakes.oneRow(row);
        });
        return JdbcFakes.fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> md;
            case "createStatement" -> st;
            default -> null;
        });
    }

    @Test
    void aPostgresFailoverBaseIsTheInsertPositionOnItsTimeline() throws Exception {
        List<String> asked = new ArrayList<>();
        LsnPosition base = (LsnPosition) new GtidReader().primaryAtFailover(postgres(asked, "0/3002100", "00000002", "8192"));
        assertEquals(LsnPosition.parse("0/3002100"), base);
        assertEquals(2, base.timeline());
        assertTrue(asked.get(0).startsWith("select pg_current_wal_insert_lsn(), "),
                "the insert position: an asynchronous commit not written yet is in it; " + asked);
    }

    @Test
    void anInsertPositionJustPastAPageHeaderIsTheBoundaryAStandbyStopsAt() throws Exception {
        LsnPosition base = (LsnPosition) new GtidReader().primaryAtFailover(
                postgres(new ArrayList<>(), "0/3002018", "00000002", "8192"));
        assertEquals(LsnPosition.parse("0/3002000"), base, "no standby reaches the header's end before the next record");
        assertEquals(2, base.timeline());
    }
}
