package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * What routing a statement allocates: a prepared statement executed again with new parameters allocates nothing but
 * its result set's wrapper (the kept setter calls allocate nothing), and a statement prepared (or created), executed,
 * read and closed allocates two small objects: the handle the application holds and its result set's wrapper. The
 * statement's body (its state, the arrays of its kept calls, its executions) is its connection's, reused by the next
 * statement; each handle and result set handed out is an object of its own, so that one closed stays closed (a second
 * close never reaches the next statement). Measured as the thread's allocated bytes of the routed loop minus those of
 * the same loop on the replica's own connection, so that the driver's own allocation cancels out; the least of several
 * rounds after a warm-up (the JIT only removes allocation), over many statements, so that a one-off allocation (a
 * table grown once) is not counted per statement.
 */
class StatementAllocationTest {

    private static final int STATEMENTS = 5_000;
    private static final int ROUNDS = 5;
    private static final int PAIRS = 4;
    /** What the measurement itself adds to a loop (the least of the rounds lies this far above the raw loop's). */
    private static final double MEASUREMENT = 1;
    /** A result set's wrapper (a header and two references), what an execution of a prepared statement may allocate. */
    private static final double RESULT_SET_WRAPPER = 24 + MEASUREMENT;
    /** Less than the least object there is (a header and a reference, 16 B): room for the measurement's noise only. */
    private static final double LESS_THAN_AN_OBJECT = 15;
    /**
     * A statement's handle (a header and one reference: 16 B on Java 17 with compressed references) and its result
     * set's wrapper (24 B): what a prepared or created read may allocate.
     */
    private static final double HANDLE_AND_RESULTS = 16 + 24 + LESS_THAN_AN_OBJECT;

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
    private static double overRaw(Connection routed, Read routedRead, Connection raw, Read rawRead) throws SQLException {
        double rawBytes = Double.MAX_VALUE;
        double routedBytes = Double.MAX_VALUE;
        for (int pair = 0; pair < PAIRS; pair++) {
            rawBytes = Math.min(rawBytes, bytesPerStatement(raw, rawRead, "r1"));
            routedBytes = Math.min(routedBytes, bytesPerStatement(routed, routedRead, "r1"));
        }
        System.out.printf("[statement-allocation] raw %.1f B, routed %.1f B per statement%n", rawBytes, routedBytes);
        return routedBytes - rawBytes;
    }

    /** One prepared statement executed again and again with a new parameter, as a batch job or a loop would. */
    private static Read executedAgain(PreparedStatement ps) {
        return (c, i) -> {
            ps.setInt(1, 1 + i % 1);
            ps.setString(2, "who");
            ps.setLong(3, i);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        };
    }

    private static final String AGAIN = "select name from who where id = ? and ? = 'who' and ? >= 0";

    @Test
    void settingParametersAndExecutingAgainAllocatesNothingButTheResultSetsWrapper() throws SQLException {
        servers = new Servers(1, "round_robin");
        assumeTrue(THREADS.isThreadAllocatedMemoryEnabled(), "the JVM measures no thread allocation");
        try (Connection c = servers.open(); PreparedStatement routed = c.prepareStatement(AGAIN);
             Connection raw = servers.replica(0).getConnection(); PreparedStatement direct = raw.prepareStatement(AGAIN)) {
            double over = overRaw(c, executedAgain(routed), raw, executedAgain(direct));
            assertTrue(over <= RESULT_SET_WRAPPER, "each execution with three parameters set allocated " + over
                    + " B more than without routing: more than its result set's wrapper (the kept setter calls allocate"
                    + " nothing)");
        }
    }

    @Test
    void aRoutedStatementAllocatesOnlyItsHandleAndItsResultSetsWrapper() throws SQLException {
        servers = new Servers(1, "round_robin", Map.of());
        servers.pastEveryTimeWindow();
        assumeTrue(THREADS.isThreadAllocatedMemoryEnabled(), "the JVM measures no thread allocation");
        try (Connection c = servers.open(servers.session(io.rwsplit.Consistency.readYourWrites()));
             Connection raw = servers.replica(0).getConnection()) {
            double prepared = overRaw(c, StatementAllocationTest::prepared, raw, StatementAllocationTest::prepared);
            double created = overRaw(c, StatementAllocationTest::created, raw, StatementAllocationTest::created);
            assertTrue(prepared <= HANDLE_AND_RESULTS, "a prepared read allocated " + prepared
                    + " B more than without routing: more than its handle and its result set's wrapper");
            assertTrue(created <= HANDLE_AND_RESULTS, "a createStatement read allocated " + created
                    + " B more than without routing: more than its handle and its result set's wrapper");
        }
    }
}
