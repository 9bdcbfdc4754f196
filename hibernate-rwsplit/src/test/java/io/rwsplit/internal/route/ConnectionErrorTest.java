package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.testing.DataSourceAdapter;

/**
 * Which errors say the connection is gone ({@link ConnectionErrors#isConnectionError}): the one classifier; and
 * beside it, which say only that a pool could not lend a connection in time ({@link ConnectionErrors#isPoolTimeout}).
 */
class ConnectionErrorTest {

    @ParameterizedTest
    @ValueSource(strings = {"08001", "08003", "08006", "08S01", "57P01", "57P02", "57P03"})
    void statesOfAConnectionOrASessionTheServerEndedAreConnectionErrors(String state) {
        assertTrue(ConnectionErrors.isConnectionError(new SQLException("gone", state)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"57014", "40001", "40P01", "25006", "42P01", "23505", "XX000", "57P04"})
    void errorsOfTheStatementAreNotConnectionErrors(String state) {
        assertFalse(ConnectionErrors.isConnectionError(new SQLException("no", state)));
    }

    @Test
    void anErrorWithoutStateIsNotAConnectionErrorUnlessItsTypeSaysSo() {
        assertFalse(ConnectionErrors.isConnectionError(new SQLException("no state")));
        assertTrue(ConnectionErrors.isConnectionError(new SQLNonTransientConnectionException("socket closed")));
    }

    @Test
    void aPostgresBackendThatEndedTheSessionIsAConnectionErrorAsPgjdbcReportsIt() {
        SQLException fatal = new SQLException("FATAL: terminating connection due to unexpected postmaster exit", "57P01");
        fatal.setNextException(new SQLException("An I/O error occurred while sending to the backend.", "08006"));
        assertTrue(ConnectionErrors.isConnectionError(fatal));
    }

    @Test
    void aConnectionErrorChainedAsTheNextExceptionOrTheCauseCounts() {
        SQLException first = new SQLException("statement failed", "XX000");
        first.setNextException(new SQLException("An I/O error occurred while sending to the backend.", "08006"));
        assertTrue(ConnectionErrors.isConnectionError(first));
        assertTrue(ConnectionErrors.isConnectionError(new SQLException("wrapped", "HY000",
                new SQLException("communications link failure", "08S01"))));
    }

    @Test
    void aChainThatLoopsEnds() {
        SQLException looping = new SQLException("no", "XX000");
        looping.setNextException(looping);
        assertFalse(ConnectionErrors.isConnectionError(looping));
    }

    // ------------------------------------------------------------------ pool timeouts

    /**
     * A HikariCP pool of one connection that waits 250 ms for it, over {@code source}; {@code warm}: its connection
     * is opened before the constructor returns (else the pool starts empty, as with a server that is down).
     */
    private static HikariDataSource hikariOfOne(DataSource source, boolean warm) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(source);
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(warm ? 1 : 0);
        config.setConnectionTimeout(250);
        config.setInitializationFailTimeout(warm ? 10_000 : -1);
        config.setPoolName("pool-timeout-test");
        return new HikariDataSource(config);
    }

    @Test
    void hikariThatCannotLendItsOnlyConnectionInTimeIsAPoolTimeoutNotAConnectionError() throws SQLException {
        String url = "jdbc:h2:mem:pooltimeout_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        DataSource h2 = new DataSourceAdapter() {
            @Override
            public Connection getConnection() throws SQLException {
                return DriverManager.getConnection(url, "sa", "");
            }
        };
        try (HikariDataSource pool = hikariOfOne(h2, true); Connection held = pool.getConnection()) {
            SQLException busy = assertThrows(SQLException.class, pool::getConnection);
            assertTrue(busy.getMessage().contains("Connection is not available, request timed out"), busy.getMessage());
            assertTrue(ConnectionErrors.isPoolTimeout(busy), "the pool's own timeout");
            assertFalse(ConnectionErrors.isConnectionError(busy), "says nothing about the server");
        }
    }

    @Test
    void hikariTimeoutCarryingTheDriversFailureToConnectIsAConnectionErrorNotAPoolTimeout() {
        DataSource refusing = new DataSourceAdapter() {
            @Override
            public Connection getConnection() throws SQLException {
                throw new SQLNonTransientConnectionException("Connection refused", "08001");
            }
        };
        try (HikariDataSource pool = hikariOfOne(refusing, false)) {
            SQLException failed = assertThrows(SQLException.class, pool::getConnection);
            assertTrue(failed.getMessage().contains("Connection is not available, request timed out"), failed.getMessage());
            assertFalse(ConnectionErrors.isPoolTimeout(failed), "HikariCP made the driver's failure its cause");
            assertTrue(ConnectionErrors.isConnectionError(failed));
        }
    }

    @Test
    void theTimeoutsOfAgroalC3p0Dbcp2AndTomcatAsTheyThrowThemArePoolTimeouts() {
        assertTrue(ConnectionErrors.isPoolTimeout(new SQLException("Sorry, acquisition timeout!")));
        assertTrue(ConnectionErrors.isPoolTimeout(new SQLException("Acquisition timeout while waiting for new connection",
                new TimeoutException())));
        assertTrue(ConnectionErrors.isPoolTimeout(new SQLException(
                "An attempt by a client to checkout a Connection has timed out.", new Exception("resource pool timeout"))));
        assertTrue(ConnectionErrors.isPoolTimeout(new SQLException("Cannot get a connection, pool error Timeout waiting"
                + " for idle object, borrowMaxWaitDuration=PT0.25S", new NoSuchElementException("Timeout waiting for idle object"))));
        assertTrue(ConnectionErrors.isPoolTimeout(new SQLException("[main] Timeout: Pool empty. Unable to fetch a"
                + " connection in 1 seconds, none available[size:2; busy:2; idle:0; lastwait:1000].")));
    }

    @Test
    void aTimeoutOfTheDriverOrAPoolTimeoutWrappingTheDriversErrorIsNotAPoolTimeout() {
        assertFalse(ConnectionErrors.isPoolTimeout(new SQLTimeoutException("Connection attempt timed out.", "08001")));
        assertFalse(ConnectionErrors.isPoolTimeout(new SQLTimeoutException(
                "Query execution was interrupted (max_statement_time exceeded)", "70100")));
        assertFalse(ConnectionErrors.isPoolTimeout(new SQLException("Sorry, acquisition timeout!",
                new java.net.ConnectException("Connection refused"))));
        SQLException withNext = new SQLException("Sorry, acquisition timeout!");
        withNext.setNextException(new SQLException("Connection refused", "08001"));
        assertFalse(ConnectionErrors.isPoolTimeout(withNext));
        assertFalse(ConnectionErrors.isPoolTimeout(new SQLException((String) null)));
    }
}
