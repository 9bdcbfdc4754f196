package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Routing a statement allocates nothing: many reads on one logical connection, each prepared (or created), executed,
 * read and closed, cost the calling thread no more bytes than the same statements on the replica's own connection.
 * Measured as the thread's allocated bytes of the routed loop minus those of the same loop without the module, so
 * that the driver's own allocation cancels out; the least of several rounds after a warm-up (the JIT only removes
 * allocation), over many statements, so that a one-off allocation (a table grown once) is not counted per statement.
 */
class StatementAllocationTest {

    private static final int STATEMENTS = 5_000;
    private static final int ROUNDS = 5;
    private static final int PAIRS = 4;
    /** Bytes per statement the routed loop may allocate over the raw one: less than the smallest object. */
    private static final double AT_MOST = 1.0;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Servers servers;

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    @FunctionalInterface
    private interface Read {
        String run(Connection c, int i) throws SQLException;
    }

    private static String prepared(Connection c, int i) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select name from who where id = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static String created(Connection c, int i) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select name from who where id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The least bytes per statement of {@link #ROUNDS} rounds of {@code read} on {@code c}, after a warm-up. */
    private static double bytesPerStatement(Connection c, Read read, String expected) throws SQLException {
        long thread = Thread.currentThread().getId();
        for (int i = 0; i < 2 * STATEMENTS; i++) {
            assertEquals(expected, read.run(c, i));
        }
        double least = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long before = THREADS.getThreadAllocatedBytes(thread);
            for (int i = 0; i < STATEMENTS; i++) {
                read.run(c, i);
            }
            least = Math.min(least, (double) (THREADS.getThreadAllocatedBytes(thread) - before) / STATEMENTS);
        }
        return least;
    }

    /**
     * Routed bytes per statement minus raw ones, each the least of {@link #PAIRS} measurements taken in turn (raw,
     * routed, raw, routed...), so that both see the same JIT state and the driver's caches.
     */
    private double overRaw(Connection routed, Read read) throws SQLException {
        try (Connection raw = servers.replica(0).getConnection()) {
            double rawBytes = Double.MAX_VALUE;
            double routedBytes = Double.MAX_VALUE;
            for (int pair = 0; pair < PAIRS; pair++) {
                rawBytes = Math.min(rawBytes, bytesPerStatement(raw, read, "r1"));
                routedBytes = Math.min(routedBytes, bytesPerStatement(routed, read, "r1"));
            }
            System.out.printf("[statement-allocation] raw %.1f B, routed %.1f B per statement%n", rawBytes, routedBytes);
            return routedBytes - rawBytes;
        }
    }

    @Test
    void aPreparedReadRoutedToAReplicaAllocatesNothing() throws SQLException {
        servers = new Servers(1, "round_robin");
        try (Connection c = servers.open()) {
            double over = overRaw(c, StatementAllocationTest::prepared);
            assertTrue(over < AT_MOST, "prepared reads allocated " + over + " B per statement more than without routing");
        }
    }

    @Test
    void aCreatedStatementsReadRoutedToAReplicaAllocatesNothing() throws SQLException {
        servers = new Servers(1, "round_robin");
        try (Connection c = servers.open()) {
            double over = overRaw(c, StatementAllocationTest::created);
            assertTrue(over < AT_MOST, "createStatement reads allocated " + over + " B per statement more than without routing");
        }
    }

    @Test
    void aReadAtTheDefaultConsistencyOnAReplicaKnownCaughtUpAllocatesNothing() throws SQLException {
        servers = new Servers(1, "round_robin", Map.of());
        servers.pastEveryTimeWindow();
        try (Connection c = servers.open(servers.session(io.rwsplit.Consistency.readYourWrites()))) {
            double prepared = overRaw(c, StatementAllocationTest::prepared);
            double created = overRaw(c, StatementAllocationTest::created);
            assertTrue(prepared < AT_MOST, "prepared reads allocated " + prepared + " B per statement more");
            assertTrue(created < AT_MOST, "createStatement reads allocated " + created + " B per statement more");
        }
    }
}
