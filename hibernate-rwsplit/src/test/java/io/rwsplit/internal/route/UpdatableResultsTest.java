package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A statement whose result sets are updatable ({@code CONCUR_UPDATABLE}) writes through them ({@code updateRow},
 * {@code insertRow}, {@code deleteRow}): whatever its SQL it runs on the primary, its write is recorded for
 * read-your-writes, and it is refused where a write is. The consistency runs in time mode (H2 has no replication
 * position): a read within the window of a recorded write goes to the primary.
 */
class UpdatableResultsTest {

    private final Servers servers = new Servers(1, "round_robin", true);
    private final SessionRouting session = servers.session(Consistency.readYourWrites());

    UpdatableResultsTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private static String name(java.sql.Connection server) throws SQLException {
        try (server; Statement s = server.createStatement(); ResultSet rs = s.executeQuery("select name from who")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static int items(java.sql.Connection server) throws SQLException {
        try (server; Statement s = server.createStatement(); ResultSet rs = s.executeQuery("select count(*) from item")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aRowUpdatedThroughACreatedStatementsResultsIsUpdatedOnThePrimary() throws SQLException {
        try (Connection c = servers.open(session);
             Statement st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
             ResultSet rs = st.executeQuery("select id, name from who")) {
            rs.next();
            rs.updateString(2, "written");
            rs.updateRow();
        }
        assertEquals("written", name(servers.primary.getConnection()));
        assertEquals("r1", name(servers.replicas.get(0).getConnection()), "never on the replica");
    }

    @Test
    void aRowInsertedThroughAPreparedStatementsResultsIsReadBackByTheNextConnection() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement ps = c.prepareStatement("select id, label from item",
                     ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
             ResultSet rs = ps.executeQuery()) {
            rs.moveToInsertRow();
            rs.updateString(2, "inserted");
            rs.insertRow();
        }
        assertEquals(1, items(servers.primary.getConnection()));
        assertEquals(0, items(servers.replicas.get(0).getConnection()), "never on the replica");
        try (Connection next = servers.open(session)) {
            assertEquals("primary", Servers.who(next), "the write is recorded: within its window, the primary");
        }
    }

    @Test
    void aRowInsertedInATransactionThroughUpdatableResultsCountsAtItsCommit() throws SQLException {
        try (Connection c = servers.open(session)) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("select id, label from item for update",
                    ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
                 ResultSet rs = ps.executeQuery()) {
                rs.moveToInsertRow();
                rs.updateString(2, "inserted");
                rs.insertRow();
            }
            c.commit();
        }
        try (Connection next = servers.open(session)) {
            assertEquals("primary", Servers.who(next), "the commit is recorded");
        }
    }

    @Test
    void anUpdatableStatementIsRefusedOnAReadOnlyConnection() throws SQLException {
        try (Connection c = servers.open(session)) {
            c.setReadOnly(true);
            SQLException refused = assertThrows(SQLException.class, () -> c.prepareStatement("select id, name from who",
                    ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE));
            assertEquals("25006", refused.getSQLState());
        }
    }
}
