package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every statement factory of the routing connection: each statement is routed by its SQL, leads back to the
 * routing connection, and a read fails over (from its replica, or from a primary that went away) like one of
 * {@code prepareStatement(sql)}.
 */
class StatementDoorsTest {

    private final Servers servers;

    StatementDoorsTest() throws SQLException {
        servers = new Servers(2, "round_robin_counting");   // the in-flight counts are checked
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private static String first(ResultSet rs) throws SQLException {
        try (rs) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private Map<String, Long> reasons() {
        return servers.router.statistics().byReason();
    }

    @Test
    void createStatementRoutesEachExecutionByItsSql() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertTrue(first(s.executeQuery("select name from who")).startsWith("r"), "a read goes to a replica");
            assertEquals(1, s.executeUpdate("insert into item (label) values ('a')"), "a write to the primary");
            assertTrue(first(s.executeQuery("select name from who")).startsWith("r"));
            assertSame(c, s.getConnection());
        }
        assertEquals("1", servers.primary.read("select count(*) from item"));
        assertEquals(2L, reasons().get("REPLICA_READ"));
        assertEquals(1L, reasons().get("WRITE"));
    }

    @Test
    void createStatementReplaysItsOptionsOnEachServer() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.setMaxRows(1);
            s.setQueryTimeout(7);
            first(s.executeQuery("select name from who"));
            assertEquals(7, s.getQueryTimeout());
            s.executeUpdate("insert into item (label) values ('a')");
            assertEquals(1, s.getMaxRows());
            assertEquals(7, s.getQueryTimeout());
        }
    }

    @Test
    void aCreateStatementReadFailsOverToTheOtherReplica() throws SQLException {
        servers.replicas.get(0).executionFails = true;
        servers.replicas.get(1).executionFails = false;
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            // round robin starts with r1, which fails: the read runs again on r2
            assertEquals("r2", first(s.executeQuery("select name from who")));
        }
        assertEquals(1, servers.replicas.get(0).failedExecutions.get());
        assertEquals(1L, reasons().get("RETRY_REPLICA"));
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertEquals("r2", first(s.executeQuery("select name from who")), "r1 is out of rotation");
        }
        assertTrue(!servers.set.isUp(servers.nodes.get(0)));
        assertEquals(0, servers.nodes.get(0).inFlight());
        assertEquals(0, servers.nodes.get(1).inFlight());
    }

    @Test
    void aCreateStatementReadFailsOverToThePrimaryWhenNoReplicaIsLeft() throws SQLException {
        servers.down(1);
        servers.replicas.get(0).executionFails = true;
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertEquals("primary", first(s.executeQuery("select name from who")));
        }
        assertEquals(1, servers.replicas.get(0).failedExecutions.get());
        assertEquals(1L, reasons().get("RETRY_PRIMARY"));
    }

    @Test
    void aCreateStatementReadWhosePrimaryConnectionBreaksRunsAgainOnceThePrimaryAnswers() throws SQLException {
        servers.down(0);
        servers.down(1);
        servers.primary.failNextExecutions.set(2); // two pooled connections to the old primary, dead one after the other
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertEquals("primary", first(s.executeQuery("select name from who")));
            assertSame(c, s.getConnection());
        }
        assertEquals(2, servers.primary.failedExecutions.get());
        assertEquals(2L, reasons().get("RETRY_PRIMARY"));
    }

    @Test
    void aCreateStatementWriteWhosePrimaryConnectionBreaksIsNeverSentAgain() throws SQLException {
        servers.primary.failNextExecutions.set(1);
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.executeUpdate("insert into item (label) values ('a')"));
        }
        assertEquals(1, servers.primary.failedExecutions.get());
        assertEquals(null, reasons().get("RETRY_PRIMARY"));
    }

    @Test
    void aGeneratedKeysReadFailsOverWithTheSameOverloadAndParameters() throws SQLException {
        servers.down(1);
        servers.replicas.get(0).executionFails = true;
        try (Connection c = servers.open();
             PreparedStatement ps = c.prepareStatement("select name from who where id = ?", Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, 1);
            assertEquals("primary", first(ps.executeQuery()));
            assertSame(c, ps.getConnection());
        }
        assertEquals(1, servers.replicas.get(0).failedExecutions.get());
        assertEquals(1L, reasons().get("RETRY_PRIMARY"));
        assertEquals(0, servers.nodes.get(0).inFlight());
    }

    @Test
    void columnVariantsOfPrepareStatementAreRoutedAndWrapped() throws SQLException {
        try (Connection c = servers.open()) {
            try (PreparedStatement ps = c.prepareStatement("select name from who where id = ?", new int[] {1})) {
                ps.setInt(1, 1);
                assertTrue(first(ps.executeQuery()).startsWith("r"));
                assertSame(c, ps.getConnection());
            }
            try (PreparedStatement ps = c.prepareStatement("insert into item (label) values (?)", new String[] {"ID"})) {
                ps.setString(1, "k");
                ps.executeUpdate();
                assertSame(c, ps.getConnection());
                assertTrue(first(ps.getGeneratedKeys()) != null);
            }
        }
        assertEquals("1", servers.primary.read("select count(*) from item"));
    }

    @Test
    void prepareCallIsRoutedByItsSqlAndLeadsBackToTheRoutingConnection() throws SQLException {
        try (Connection c = servers.open(); CallableStatement call = c.prepareCall("{call h2version()}")) {
            assertSame(c, call.getConnection());
            assertTrue(call.execute());
        }
        assertEquals(1L, reasons().get("PRIMARY_ONLY_STATEMENT"));
    }

    @Test
    void aStatementBatchRunsOnThePrimary() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.addBatch("insert into item (label) values ('a')");
            s.addBatch("insert into item (label) values ('b')");
            assertEquals(2, s.executeBatch().length);
            SQLException e = assertThrows(SQLException.class, () -> {
                s.addBatch("insert into item (label) values ('c')");
                s.addBatch("select name from who");
            });
            assertTrue(e.getMessage().contains("batch runs on one server"), e.getMessage());
        }
        assertEquals("2", servers.primary.read("select count(*) from item"));
    }

    @Test
    void aReadOnlyTransactionKeepsCreateStatementReadsOnItsReplica() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            String replica = who(c);
            try (Statement s = c.createStatement()) {
                for (int i = 0; i < 4; i++) {
                    assertEquals(replica, first(s.executeQuery("select name from who")));
                }
            }
            c.commit();
        }
    }
}
