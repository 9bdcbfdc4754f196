package io.rwsplit.route;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which errors say the connection is gone ({@link RoutingConnection#isConnectionError}): the one classifier. */
class ConnectionErrorTest {

    @ParameterizedTest
    @ValueSource(strings = {"08001", "08003", "08006", "08S01", "57P01", "57P02", "57P03"})
    void statesOfAConnectionOrASessionTheServerEndedAreConnectionErrors(String state) {
        assertTrue(RoutingConnection.isConnectionError(new SQLException("gone", state)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"57014", "40001", "40P01", "25006", "42P01", "23505", "XX000", "57P04"})
    void errorsOfTheStatementAreNotConnectionErrors(String state) {
        assertFalse(RoutingConnection.isConnectionError(new SQLException("no", state)));
    }

    @Test
    void anErrorWithoutStateIsNotAConnectionErrorUnlessItsTypeSaysSo() {
        assertFalse(RoutingConnection.isConnectionError(new SQLException("no state")));
        assertTrue(RoutingConnection.isConnectionError(new SQLNonTransientConnectionException("socket closed")));
    }

    @Test
    void aPostgresBackendThatEndedTheSessionIsAConnectionErrorAsPgjdbcReportsIt() {
        SQLException fatal = new SQLException("FATAL: terminating connection due to unexpected postmaster exit", "57P01");
        fatal.setNextException(new SQLException("An I/O error occurred while sending to the backend.", "08006"));
        assertTrue(RoutingConnection.isConnectionError(fatal));
    }

    @Test
    void aConnectionErrorChainedAsTheNextExceptionOrTheCauseCounts() {
        SQLException first = new SQLException("statement failed", "XX000");
        first.setNextException(new SQLException("An I/O error occurred while sending to the backend.", "08006"));
        assertTrue(RoutingConnection.isConnectionError(first));
        assertTrue(RoutingConnection.isConnectionError(new SQLException("wrapped", "HY000",
                new SQLException("communications link failure", "08S01"))));
    }

    @Test
    void aChainThatLoopsEnds() {
        SQLException looping = new SQLException("no", "XX000");
        looping.setNextException(looping);
        assertFalse(RoutingConnection.isConnectionError(looping));
    }
}
