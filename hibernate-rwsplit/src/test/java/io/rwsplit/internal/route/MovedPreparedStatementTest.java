package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A prepared read that moves to another server (its replica's connection broke under it, and it is prepared again on
 * the primary) is set up there as the application set it up: the row limit of its last {@code setMaxRows} or
 * {@code setLargeMaxRows} call, a fetch size the driver checks against that limit, and {@code closeOnCompletion()}.
 */
class MovedPreparedStatementTest {

    private static final String SQL = "select name from who where id = ?";

    private final Servers servers = new Servers(1, "round_robin");

    MovedPreparedStatementTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** Runs {@code ps} while r1's connection breaks under it: it moves to the primary. Who answered. */
    private String movedRead(PreparedStatement ps) throws SQLException {
        servers.replicas.get(0).failNextExecutions.set(1);
        try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void aMovedReadKeepsTheRowLimitOfItsLastCall() throws SQLException {
        try (Connection c = servers.open(); PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setInt(1, 1);
            ps.setMaxRows(10);
            ps.setLargeMaxRows(5);   // one limit: this call's
            assertEquals("primary", movedRead(ps));
            assertEquals(5, ps.getLargeMaxRows(), "the limit set last, on the primary's statement");
        }
    }

    @Test
    void aMovedReadTakesAgainAFetchSizeSetBeforeALowerMaxRows() throws SQLException {
        try (Connection c = servers.open(); PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setInt(1, 1);
            ps.setMaxRows(100);
            ps.setFetchSize(50);
            ps.setMaxRows(10);   // H2 took it; it would refuse the fetch size set after this limit
            assertEquals("primary", movedRead(ps));
            assertEquals(10, ps.getMaxRows());
            assertEquals(50, ps.getFetchSize());
        }
    }

    @Test
    void aMovedReadStillClosesOnCompletion() throws SQLException {
        try (Connection c = servers.open()) {
            PreparedStatement ps = c.prepareStatement(SQL);
            ps.setInt(1, 1);
            ps.closeOnCompletion();
            servers.replicas.get(0).failNextExecutions.set(1);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("primary", rs.getString(1));
                assertTrue(ps.isCloseOnCompletion(), "set on the primary's statement too");
            }
            assertTrue(ps.isClosed(), "closed with its results, as it was set to: the application need not close it");
        }
    }

    @Test
    void aReadClosedOnCompletionStaysClosedAfterAWriteWouldRouteItElsewhere() throws SQLException {
        try (Connection c = servers.open()) {
            PreparedStatement ps = c.prepareStatement("select name from who where id = ?");
            ps.closeOnCompletion();
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
            }
            assertTrue(ps.isClosed(), "closed with its results");
            c.setAutoCommit(false);
            try (java.sql.Statement write = c.createStatement()) {
                write.executeUpdate("insert into item (label) values ('a')");
            }
            // the write would route it again to the primary, where it would be prepared again and run
            assertEquals("HY010", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, ps::executeQuery)
                    .getSQLState());
            c.rollback();
            c.setAutoCommit(true);
        }
    }
}

