package io.rwsplit.internal.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.replica.PrimaryBreaker;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.testing.FakeClock;

class PrimaryBreakerTest {

    private final FakeClock clock = new FakeClock();
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile boolean primaryUp = true;
    /** While set, the primary's pool has every connection borrowed: each acquisition ends in its timeout. */
    private volatile boolean poolBusy;
    private final Connection connection = (Connection) java.lang.reflect.Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {Connection.class}, (p, m, a) -> null);
    private final PrimarySource primary = new PrimarySource() {
        @Override
        public Connection acquire() throws SQLException {
            attempts.incrementAndGet();
            if (poolBusy) {
                throw new SQLTransientConnectionException("primary - Connection is not available, request timed out"
                        + " after 250ms (total=2, active=2, idle=0, waiting=8)");
            }
            if (!primaryUp) {
                throw new SQLException("Connection refused", "08001");
            }
            return connection;
        }

        @Override
        public void release(Connection c) {
        }
    };
    private final PrimaryBreaker breaker = new PrimaryBreaker("test", primary, 3, Duration.ofSeconds(5), clock);

    @Test
    void staysClosedWhileThePrimaryAnswers() throws SQLException {
        for (int i = 0; i < 10; i++) {
            assertSame(connection, breaker.acquire());
        }
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
    }

    @Test
    void opensAfterTheConfiguredConsecutiveFailuresAndFailsFast() {
        primaryUp = false;
        for (int i = 0; i < 3; i++) {
            SQLException e = assertThrows(SQLException.class, breaker::acquire);
            assertEquals("Connection refused", e.getMessage());
        }
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state());
        SQLException fast = assertThrows(SQLTransientConnectionException.class, breaker::acquire);
        assertTrue(fast.getMessage().contains("primary circuit breaker OPEN since "), fast.getMessage());
        assertTrue(fast.getMessage().contains("retry after "), fast.getMessage());
        assertTrue(fast.getMessage().contains("Connection refused"), fast.getMessage());
        assertEquals(3, attempts.get(), "an open breaker does not touch the primary");
    }

    @Test
    void aSuccessResetsTheFailureCount() throws SQLException {
        primaryUp = false;
        assertThrows(SQLException.class, breaker::acquire);
        assertThrows(SQLException.class, breaker::acquire);
        primaryUp = true;
        breaker.acquire();
        primaryUp = false;
        assertThrows(SQLException.class, breaker::acquire);
        assertThrows(SQLException.class, breaker::acquire);
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
    }

    @Test
    void halfOpenTrialAfterTheCoolDownClosesOnSuccess() throws SQLException {
        primaryUp = false;
        for (int i = 0; i < 3; i++) {
            assertThrows(SQLException.class, breaker::acquire);
        }
        clock.advance(Duration.ofMillis(4999));
        assertThrows(SQLTransientConnectionException.class, breaker::acquire);
        clock.advance(Duration.ofMillis(1));
        primaryUp = true;
        assertSame(connection, breaker.acquire());
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
        assertEquals(4, attempts.get());
    }

    @Test
    void failedTrialOpensForAnotherCoolDown() {
        primaryUp = false;
        for (int i = 0; i < 3; i++) {
            assertThrows(SQLException.class, breaker::acquire);
        }
        clock.advance(Duration.ofSeconds(5));
        SQLException trial = assertThrows(SQLException.class, breaker::acquire);
        assertEquals("Connection refused", trial.getMessage());
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state());
        clock.advance(Duration.ofSeconds(4));
        assertThrows(SQLTransientConnectionException.class, breaker::acquire);
        assertEquals(4, attempts.get());
    }

    @Test
    void aProbeClosesTheOpenBreakerAsSoonAsThePrimaryAnswersWithoutWaitingForTheCoolDown() throws SQLException {
        primaryUp = false;
        for (int i = 0; i < 3; i++) {
            assertThrows(SQLException.class, breaker::acquire);
        }
        clock.advance(Duration.ofMillis(250));
        breaker.probe();
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state(), "the primary is still away");
        assertThrows(SQLTransientConnectionException.class, breaker::acquire);
        primaryUp = true; // the new primary answers, 4.5 s before the cool-down ends
        clock.advance(Duration.ofMillis(250));
        breaker.probe();
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
        assertSame(connection, breaker.acquire());
        assertEquals(6, attempts.get(), "3 failures, 2 probes, 1 acquisition");
    }

    @Test
    void aFailedProbeKeepsFailingFastWithoutTouchingThePrimary() {
        primaryUp = false;
        for (int i = 0; i < 3; i++) {
            assertThrows(SQLException.class, breaker::acquire);
        }
        for (int i = 0; i < 4; i++) {
            clock.advance(Duration.ofMillis(250));
            breaker.probe();
            assertThrows(SQLTransientConnectionException.class, breaker::acquire);
        }
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state());
        assertEquals(7, attempts.get(), "3 failures and 4 probes; the fast failures never reach the primary");
    }

    @Test
    void aProbeLeavesAClosedBreakerAlone() {
        breaker.probe();
        assertEquals(0, attempts.get());
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
    }

    // ------------------------------------------------------------------ saturation is not failure

    @Test
    void thePoolsOwnTimeoutsNeverOpenTheBreakerAndTheNextAcquisitionSucceeds() throws SQLException {
        poolBusy = true;
        for (int i = 0; i < 10; i++) {
            SQLException e = assertThrows(SQLTransientConnectionException.class, breaker::acquire);
            assertTrue(e.getMessage().contains("request timed out"), "the pool's own error: " + e.getMessage());
        }
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
        poolBusy = false;
        assertSame(connection, breaker.acquire());
    }

    @Test
    void aPoolTimeoutNeitherCountsNorResetsTheConsecutiveFailures() {
        primaryUp = false;
        assertThrows(SQLException.class, breaker::acquire);
        assertThrows(SQLException.class, breaker::acquire);
        poolBusy = true;
        assertThrows(SQLException.class, breaker::acquire);
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
        poolBusy = false;
        assertThrows(SQLException.class, breaker::acquire);
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state(), "three failures of the primary, one busy pool between");
    }

    @Test
    void aPoolTimeoutCarryingTheDriversFailureToConnectCounts() {
        PrimaryBreaker refused = new PrimaryBreaker("test", new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                SQLException cause = new SQLException("Connection refused", "08001");
                SQLException timeout = new SQLTransientConnectionException("primary - Connection is not available,"
                        + " request timed out after 250ms (total=0, active=0, idle=0, waiting=0)", "08001", 0, cause);
                timeout.setNextException(cause);
                throw timeout;
            }

            @Override
            public void release(Connection c) {
            }
        }, 3, Duration.ofSeconds(5), clock);
        for (int i = 0; i < 3; i++) {
            assertThrows(SQLException.class, refused::acquire);
        }
        assertEquals(PrimaryBreaker.State.OPEN, refused.state());
    }

    @Test
    void aTrialThatFindsThePoolBusyLeavesTheBreakerOpenForTheNextTrial() throws SQLException {
        primaryUp = false;
        for (int i = 0; i < 3; i++) {
            assertThrows(SQLException.class, breaker::acquire);
        }
        clock.advance(Duration.ofSeconds(5));
        poolBusy = true;
        assertThrows(SQLTransientConnectionException.class, breaker::acquire);
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state(), "not stuck HALF_OPEN, not a new cool-down");
        breaker.probe();
        assertEquals(PrimaryBreaker.State.OPEN, breaker.state(), "the probe's trial met the busy pool too");
        poolBusy = false;
        primaryUp = true;
        assertSame(connection, breaker.acquire(), "the next acquisition is a trial at once");
        assertEquals(PrimaryBreaker.State.CLOSED, breaker.state());
    }
}
