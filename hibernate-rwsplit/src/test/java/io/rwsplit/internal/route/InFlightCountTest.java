package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The statements in progress on a replica are counted while they run, prepared or created, for a balancer that reads
 * them (least_in_flight, or one written for an application), and not at all for the built-in balancers that never
 * read them. A statement the application leaves open stops counting when its connection closes or is aborted, one set
 * to close on completion when its results close.
 */
class InFlightCountTest {

    private Servers servers;

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private int inFlight() {
        return servers.nodes.get(0).inFlight();
    }

    /** A prepared read and a created one, each asked for its replica's in-flight count while its results are open. */
    private int[] whileRunning() throws SQLException {
        int[] seen = new int[2];
        try (Connection c = servers.open()) {
            try (PreparedStatement ps = c.prepareStatement("select name from who where id = ?")) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals("r1", rs.getString(1));
                    seen[0] = inFlight();
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select name from who")) {
                rs.next();
                assertEquals("r1", rs.getString(1));
                seen[1] = inFlight();
            }
        }
        return seen;
    }

    @Test
    void aBalancerThatReadsThemSeesTheStatementsInProgressAndNoneOnceClosed() throws SQLException {
        for (String balancer : new String[] {"least_in_flight", "round_robin_counting"}) {
            servers = new Servers(1, balancer);
            int[] seen = whileRunning();
            assertEquals(1, seen[0], balancer + ": a prepared read in progress");
            assertEquals(1, seen[1], balancer + ": a created read in progress");
            assertEquals(0, inFlight(), balancer + ": every statement closed");
            servers.close();
        }
        servers = new Servers(1, "least_in_flight");
    }

    @Test
    void theBalancersThatNeverReadThemDoNotCountThem() throws SQLException {
        for (String balancer : new String[] {"round_robin", "random", "weighted", "least_lag"}) {
            servers = new Servers(1, balancer);
            int[] seen = whileRunning();
            assertEquals(0, seen[0], balancer + ": nothing counted for a prepared read");
            assertEquals(0, seen[1], balancer + ": nothing counted for a created read");
            servers.close();
        }
        servers = new Servers(1, "round_robin");
    }

    /** The one row {@code rs} reads, {@code rs} closed. */
    private static String answer(ResultSet rs) throws SQLException {
        try (rs) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** A prepared read and a created one on the replica through {@code c}, their results closed, both left open. */
    private Statement[] twoReadsLeftOpen(Connection c) throws SQLException {
        PreparedStatement prepared = c.prepareStatement("select name from who where id = ?");
        prepared.setInt(1, 1);
        assertEquals("r1", answer(prepared.executeQuery()));
        Statement created = c.createStatement();
        assertEquals("r1", answer(created.executeQuery("select name from who")));
        assertEquals(2, inFlight(), "each statement counts until it is closed");
        return new Statement[] {prepared, created};
    }

    @Test
    void theStatementsLeftOpenStopCountingWhenTheirConnectionCloses() throws SQLException {
        servers = new Servers(1, "least_in_flight");
        Connection c = servers.open();
        Statement[] leftOpen = twoReadsLeftOpen(c);
        c.close();
        assertEquals(0, inFlight(), "the connection's close gave back what its statements left open held");
        for (Statement s : leftOpen) {
            s.close();   // closed after their connection, as Hibernate closes a batch statement
        }
        assertEquals(0, inFlight(), "nothing is given back twice");
    }

    @Test
    void theStatementsLeftOpenStopCountingWhenTheirConnectionIsAborted() throws SQLException {
        servers = new Servers(1, "least_in_flight");
        Connection c = servers.open();
        Statement[] leftOpen = twoReadsLeftOpen(c);
        c.abort(Runnable::run);
        assertEquals(0, inFlight(), "the abort gave back what the statements left open held");
        for (Statement s : leftOpen) {
            s.close();
        }
        assertEquals(0, inFlight(), "nothing is given back twice");
    }

    @Test
    void aStatementClosedAfterItsConnectionLeavesTheNextSessionsCountAlone() throws SQLException {
        servers = new Servers(1, "least_in_flight");
        Connection earlier = servers.open();
        PreparedStatement leftOpen = earlier.prepareStatement("select name from who where id = ?");
        leftOpen.setInt(1, 1);
        assertEquals("r1", answer(leftOpen.executeQuery()));
        earlier.close();
        assertEquals(0, inFlight());
        assertEquals(1, servers.router.idleConnections(), "its parts wait for the next session");
        try (Connection next = servers.open();   // over the same parts
             PreparedStatement ps = next.prepareStatement("select name from who where id = ?")) {
            ps.setInt(1, 1);
            assertEquals("r1", answer(ps.executeQuery()));
            assertEquals(1, inFlight(), "the next session's read");
            leftOpen.close();   // late, while the parts serve the next session
            assertEquals(1, inFlight(), "the next session's read still counts: the earlier connection gave back its"
                    + " statement's count when it closed");
        }
        assertEquals(0, inFlight());
    }

    @Test
    void aStatementThatClosesOnCompletionStopsCountingWhenItsResultsClose() throws SQLException {
        servers = new Servers(1, "least_in_flight");
        try (Connection c = servers.open()) {
            Statement created = c.createStatement();
            created.closeOnCompletion();
            ResultSet rs = created.executeQuery("select name from who");
            assertEquals(1, inFlight(), "a created read in progress");
            assertEquals("r1", answer(rs));   // its driver statement closes with its results
            assertEquals(0, inFlight(), "a created read that closed on completion");

            PreparedStatement prepared = c.prepareStatement("select name from who where id = ?");
            prepared.closeOnCompletion();
            prepared.setInt(1, 1);
            rs = prepared.executeQuery();
            assertEquals(1, inFlight(), "a prepared read in progress");
            assertEquals("r1", answer(rs));
            assertTrue(prepared.isClosed(), "closed with its results: the application need not close it");
            assertEquals(0, inFlight(), "a prepared read that closed on completion");
        }
        assertEquals(0, inFlight());
    }

    @Test
    void aReadWhoseConnectionIsAbortedWhileItWaitsForItsReplicaHoldsNoCount() throws Exception {
        servers = new Servers(1, "least_in_flight");
        Connection c = servers.open();
        Statement created = c.createStatement();
        io.rwsplit.testing.H2Server.Hold hold = servers.replicas.get(0).holdLends();   // the abort comes meanwhile
        java.util.concurrent.CompletableFuture<Void> read = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try (created; ResultSet rs = created.executeQuery("select name from who")) {
                rs.next();
            }
            catch (SQLException expected) {
                // whether the read ran or met the closed connection, its statement is closed
            }
        });
        assertTrue(hold.awaitLending(), "the read waits for its replica connection");
        c.abort(Runnable::run);
        hold.release();
        read.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(0, inFlight(), "no count stays behind an aborted connection");
    }
}
