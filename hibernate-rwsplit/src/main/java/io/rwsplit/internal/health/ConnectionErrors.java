package io.rwsplit.internal.health;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The one classifier of JDBC failures: whether a server or a connection is gone (a connection error), whether a pool
 * only could not lend a connection in time (saturation, not failure), and whether a replica refused a statement as a
 * write. Routing's failover, replica ejection on borrow, the primary circuit breaker and the health monitor all ask
 * here. Stateless.
 */
public final class ConnectionErrors {

    /** SQLState "read-only SQL transaction": what a read-only replica answers to a write. */
    public static final String READ_ONLY_REFUSAL = "25006";

    /** How many exceptions of a chain (causes and next exceptions together) are read. */
    private static final int CHAIN_LIMIT = 10;

    /** How pools word their own timeout, lower case: HikariCP, Agroal, c3p0, DBCP2 (commons-pool), Tomcat JDBC. */
    private static final String[] POOL_TIMEOUT_WORDS = {
            "connection is not available, request timed out", "acquisition timeout",
            "checkout a connection has timed out", "timeout waiting for idle object", "timeout: pool empty"};

    private ConnectionErrors() {
    }

    /**
     * Whether {@code e} says the server or the connection is gone: SQLState class 08, PostgreSQL's states of a
     * session the server ended ({@code 57P01} admin shutdown, which is also "terminating connection due to
     * unexpected postmaster exit"; {@code 57P02} crash shutdown; {@code 57P03} cannot connect now), or a JDBC
     * connection exception type, on {@code e}, its causes or its next exceptions. pgjdbc reports a backend that
     * ended the session as {@code 57P01} with the I/O error ({@code 08006}) as its next exception, not its cause.
     * A pool's own timeout ({@link #isPoolTimeout}) is not one, although HikariCP gives it a connection exception type.
     */
    public static boolean isConnectionError(SQLException e) {
        if (isPoolTimeout(e)) {
            return false;
        }
        int read = 0;
        for (SQLException next = e; next != null && read < CHAIN_LIMIT; next = next.getNextException()) {
            for (Throwable t = next; t != null && read < CHAIN_LIMIT; t = t.getCause()) {
                read++;
                if (saysConnectionGone(t)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether an execution's failure {@code e} means the statement's connection is unusable: a connection error
     * ({@link #isConnectionError(SQLException)}), or a connection that is closed now (a pool that found it broken
     * closes it; "Connection is closed" comes without an SQLState).
     */
    public static boolean isConnectionError(SQLException e, Statement statement) {
        if (isConnectionError(e)) {
            return true;
        }
        try {
            return statement != null && statement.getConnection().isClosed();
        }
        catch (SQLException | RuntimeException ignored) {
            return false;
        }
    }

    /** Whether a server refused {@code e}'s statement as a write in a read-only context (SQLState 25006). */
    public static boolean refusedAsWrite(SQLException e) {
        return READ_ONLY_REFUSAL.equals(e.getSQLState());
    }

    /**
     * Whether {@code e} is a pool's own report that it could not lend a connection in time, which says nothing about
     * the server behind it (saturation is not failure): worded as one of {@link #POOL_TIMEOUT_WORDS}, with no SQLState,
     * no next exception, and no failure of the driver or the network (an {@link SQLException} or an
     * {@link java.io.IOException}) among its causes. HikariCP gives its timeout the driver's last failure to connect
     * as cause and next exception (and its SQLState) when there was one since its last connection: then it is a
     * failure of the server. Used wherever a failure to obtain a connection is judged: replica ejection on borrow,
     * the primary circuit breaker, and {@link #isConnectionError}.
     */
    public static boolean isPoolTimeout(SQLException e) {
        String message = e.getMessage();
        if (message == null || e.getSQLState() != null || e.getNextException() != null) {
            return false;
        }
        int read = 0;
        for (Throwable t = e.getCause(); t != null && read < CHAIN_LIMIT; t = t.getCause()) {
            read++;
            if (t instanceof SQLException || t instanceof java.io.IOException) {
                return false;
            }
        }
        String lower = message.toLowerCase(java.util.Locale.ROOT);
        for (String words : POOL_TIMEOUT_WORDS) {
            if (lower.contains(words)) {
                return true;
            }
        }
        return false;
    }

    /** Adds {@code other} to {@code e}'s suppressed exceptions unless it is {@code e} itself, and returns {@code e}. */
    public static SQLException withSuppressed(SQLException e, Throwable other) {
        if (other != null && other != e) {
            e.addSuppressed(other);
        }
        return e;
    }

    private static boolean saysConnectionGone(Throwable t) {
        if (t instanceof java.sql.SQLTransientConnectionException || t instanceof java.sql.SQLNonTransientConnectionException
                || t instanceof java.sql.SQLRecoverableException) {
            return true;
        }
        String state = t instanceof SQLException sqle ? sqle.getSQLState() : null;
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03"));
    }
}
