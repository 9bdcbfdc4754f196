package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * read them.
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
}
