package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A statement handed out is a handle over a body its connection reuses once the statement is closed: the next
 * statement gets the body, and the closed handle stays closed, so that what callers do with a statement they closed
 * (Hibernate's batch clean-up after the connection's release, a second close, a result set closed late) never
 * reaches the statement that has the body now. A body closed after its connection was closed is not kept: the
 * connection's parts may serve another session by then.
 */
class StatementHandleTest {

    private static final String READ = "select name from who where id = ?";

    private final Servers servers = new Servers(1, "round_robin", Map.of());

    StatementHandleTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** The body behind a handle, or what a closed handle keeps (its connection). */
    private static Object target(Statement handle) throws ReflectiveOperationException {
        Field target = handle.getClass().getDeclaredField("target");
        target.setAccessible(true);
        return target.get(handle);
    }

    private static String read(PreparedStatement ps) throws SQLException {
        ps.setInt(1, 1);
        try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void theNextStatementGetsAClosedOnesBodyAndTheClosedOneStaysClosed() throws Exception {
        try (Connection c = servers.open()) {
            PreparedStatement first = c.prepareStatement(READ);
            Object body = target(first);
            assertEquals("r1", read(first));
            first.close();
            PreparedStatement next = c.prepareStatement(READ);
            assertNotSame(first, next, "each statement is a handle of its own");
            assertSame(body, target(next), "over the body the closed one had");

            first.close();   // a second close, as JDBC allows: a no-op
            assertTrue(first.isClosed());
            assertFalse(next.isClosed());
            assertSame(c, first.getConnection(), "a closed statement still names its connection, as drivers do");
            assertEquals("HY010", assertThrows(SQLException.class, first::executeQuery).getSQLState());
            assertEquals("HY010", assertThrows(SQLException.class, () -> first.setInt(1, 2)).getSQLState());
            assertEquals("r1", read(next), "the next statement is untouched");
            next.close();
        }
    }

    @Test
    void hibernatesBatchCleanUpOfAClosedStatementNeverReachesTheNextBatch() throws Exception {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            PreparedStatement first = c.prepareStatement("insert into item (label) values (?)");
            first.setString(1, "first");
            first.addBatch();
            first.executeBatch();
            first.close();
            PreparedStatement next = c.prepareStatement("insert into item (label) values (?)");
            next.setString(1, "kept");
            next.addBatch();

            // what Hibernate's BatchImpl does with the statements of a batch once the connection is released
            if (!first.isClosed()) {
                first.clearBatch();
            }
            first.close();
            assertEquals("HY010", assertThrows(SQLException.class, first::clearBatch).getSQLState());

            assertEquals(1, next.executeBatch().length, "the next batch kept its statement");
            next.close();
            c.commit();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select count(*) from item where label in ('first', 'kept')")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    @Test
    void aResultSetOfAClosedStatementNamesItsOwnStatementAndItsLateCloseLeavesTheNextOnesResultsOpen() throws Exception {
        try (Connection c = servers.open()) {
            PreparedStatement first = c.prepareStatement(READ);
            first.setInt(1, 1);
            ResultSet late = first.executeQuery();
            first.close();
            try (PreparedStatement next = c.prepareStatement(READ)) {
                next.setInt(1, 1);
                try (ResultSet current = next.executeQuery()) {
                    late.close();   // closed late, and already closed with its statement
                    assertSame(first, late.getStatement(), "a result set hands back the handle that made it");
                    assertSame(next, current.getStatement());
                    assertTrue(current.next(), "the next statement's results are open");
                    assertEquals("r1", current.getString(1));
                }
            }
        }
    }

    @Test
    void aCreatedStatementsBodyServesTheNextOneAndTheClosedOneStaysClosed() throws Exception {
        try (Connection c = servers.open()) {
            Statement first = c.createStatement();
            first.setFetchSize(7);
            first.executeQuery("select name from who").close();
            Object body = target(first);
            first.close();
            Statement next = c.createStatement();
            assertSame(body, target(next));
            first.close();
            assertEquals("HY010", assertThrows(SQLException.class,
                    () -> first.executeUpdate("insert into item (label) values ('stale')")).getSQLState());
            assertSame(c, first.getConnection());
            assertNotEquals(7, next.getFetchSize(), "no option of the closed statement carries over");
            try (ResultSet rs = next.executeQuery("select name from who")) {
                assertSame(next, rs.getStatement());
                assertTrue(rs.next());
            }
            next.close();
        }
    }

    @Test
    void aStatementClosedAfterItsConnectionLeavesThePartsOfTheNextSessionAlone() throws Exception {
        RoutingConnection closed = servers.open(servers.session(Consistency.readYourWrites()));
        PreparedStatement left = closed.prepareStatement(READ);
        Object body = target(left);
        Field parts = RoutingConnection.class.getDeclaredField("routing");
        parts.setAccessible(true);
        Object itsParts = parts.get(closed);   // a closed facade lets go of them
        closed.close();   // the statement is still open
        RoutingConnection next = servers.open(servers.session(Consistency.readYourWrites()));
        left.close();     // its body is not kept: the parts serve the next session now
        Field idle = StatementDoors.class.getDeclaredField("idleRead");
        idle.setAccessible(true);
        assertSame(itsParts, parts.get(next));
        assertNull(idle.get(((ConnectionRouting) parts.get(next)).doors()),
                "the closed connection's statement gave its body to no one");
        try (PreparedStatement ps = next.prepareStatement(READ)) {
            assertNotSame(body, target(ps));
            assertEquals("r1", read(ps));
        }
        next.close();
    }
}
