package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.LostWriteException;
import io.rwsplit.internal.config.ShapeRule;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.MariaDbGtidPosition;

/**
 * A read that must see the unit's last write (0-1-7) loses the primary in a failover and finds, behind the primary URL,
 * a server that is writable already: a promoted replica, which may lack the write. The writable check cannot tell;
 * the read waits for the monitor's look at the server, which compares what it replicated with the write, and then
 * fails with {@link LostWriteException} when the write is not there, or is served when it is.
 */
class LostWriteInFlightTest {

    private static final MariaDbGtidPosition WRITE = MariaDbGtidPosition.parse("0-1-7");

    private final Servers servers;
    private final SessionRouting session;

    LostWriteInFlightTest() throws SQLException {
        servers = new Servers(2, "round_robin", true);
        servers.down(0);
        servers.down(1);   // the read goes to the primary
        session = servers.session(Consistency.readYourWrites());
        session.consistency().committed(ConsistencyToken.of(WRITE, servers.clock.epochMicros()));
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private CompletableFuture<String> readInFlight() {
        return readInFlight(session);
    }

    private CompletableFuture<String> readInFlight(SessionRouting session) {
        servers.primary.failNextExecutions.set(1);   // the old primary's connection dies under the read
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try (Connection c = servers.open(session); PreparedStatement ps = c.prepareStatement("select name from who");
                 ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getString(1);
            }
            catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (servers.primary.readOnlyChecks.get() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(servers.primary.readOnlyChecks.get() >= 2, "the read reached the writable server and tried again");
        assertFalse(read.isDone(), "not served before the monitor saw the server");
        return read;
    }

    /** The monitor's look at the new primary: it re-bases reads, then says a writable server answers. */
    private void monitorSeesNewPrimary(String survived) {
        servers.clock.advanceMillis(10);
        servers.router.causal().primaryChanged(MariaDbGtidPosition.parse("0-2-9"), MariaDbGtidPosition.parse(survived));
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), null, null);
    }

    /**
     * The monitor's {@code look} lands once, after the read's gate found nothing to refuse, as the read connects to the
     * primary; whether it did.
     */
    private java.util.concurrent.atomic.AtomicBoolean lookAsTheReadConnects(Runnable look) {
        java.util.concurrent.atomic.AtomicBoolean seen = new java.util.concurrent.atomic.AtomicBoolean();
        servers.onPrimaryAcquire = () -> {
            if (seen.compareAndSet(false, true)) {
                look.run();
            }
        };
        return seen;
    }

    @Test
    void aReadInFlightWhoseWriteTheNewPrimaryLacksFailsWithLostWriteException() throws Exception {
        CompletableFuture<String> read = readInFlight();
        monitorSeesNewPrimary("0-1-6");
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> read.get(10, TimeUnit.SECONDS));
        LostWriteException lost = assertInstanceOf(LostWriteException.class, failed.getCause().getCause());
        assertEquals("0-1-7", lost.lostPosition());
        assertEquals("40003", lost.getSQLState());
        assertEquals(1, servers.router.statistics().lostWriteReads());
    }

    @Test
    void aReadThatPassedTheGateBeforeTheMonitorSawTheNewPrimaryAsksTheGateAgain() throws Exception {
        CompletableFuture<String> read = readInFlight();
        java.util.concurrent.atomic.AtomicBoolean seen = lookAsTheReadConnects(() -> monitorSeesNewPrimary("0-1-6"));
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> read.get(10, TimeUnit.SECONDS));
        assertInstanceOf(LostWriteException.class, failed.getCause().getCause(), "not served by the server that lacks it");
        assertTrue(seen.get());
    }

    /**
     * As above, and the monitor could read no position of the new primary (what reads must see is re-based to a time):
     * the look noted the loss, and the read asks the gate again instead of being served there.
     */
    @Test
    void aReadThatPassedTheGateBeforeALookWithoutThePrimarysPositionIsNotServedThere() throws Exception {
        CompletableFuture<String> read = readInFlight();
        java.util.concurrent.atomic.AtomicBoolean seen = lookAsTheReadConnects(() -> {
            servers.clock.advanceMillis(10);
            servers.router.causal().primaryChanged(null, MariaDbGtidPosition.parse("0-1-6"));
            servers.router.primaryAnswered(true, servers.clock.nanoTime(), null, null);
        });
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> read.get(10, TimeUnit.SECONDS));
        assertInstanceOf(LostWriteException.class, failed.getCause().getCause(), "not served by the server that lacks it");
        assertTrue(seen.get());
    }

    @Test
    void aReadRoutedWhileThePrimaryIsSuspectIsNotServedByANewPrimaryTheMonitorSawAfterItsGate() {
        java.util.concurrent.atomic.AtomicBoolean look = new java.util.concurrent.atomic.AtomicBoolean();
        SessionRouting watched = new SessionRouting(null, servers.router.causal().newSession()) {
            @Override
            protected void servedByPrimary() {
                super.servedByPrimary();
                if (look.compareAndSet(true, false)) {
                    monitorSeesNewPrimary("0-1-6");   // after the gate sent the read to the primary, before it connects
                }
            }
        };
        watched.consistency().level(Consistency.readYourWrites());
        watched.consistency().committed(ConsistencyToken.of(WRITE, servers.clock.epochMicros()));
        servers.router.primaryConnectionFailed();   // a failover may be under way
        look.set(true);
        SQLException failed = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> {
            try (Connection c = servers.open(watched); PreparedStatement ps = c.prepareStatement("select name from who");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
            }
        });
        assertInstanceOf(LostWriteException.class, failed, "not served by the server that lacks the write");
    }

    @Test
    void aReadInFlightWhoseWriteTheNewPrimaryHasIsServedThere() throws Exception {
        CompletableFuture<String> read = readInFlight();
        monitorSeesNewPrimary("0-1-7");
        assertEquals("primary", read.get(10, TimeUnit.SECONDS));
        assertEquals(0, servers.router.statistics().lostWriteReads());
    }

    @Test
    void aReadARuleGivesReadYourWritesWaitsForTheMonitorInASessionThatReadsEventually() throws Exception {
        servers.router.useRules(java.util.List.of(new ShapeRule("who", ShapeRule.Match.PREFIX, "select name from who",
                Consistency.readYourWrites())));
        CompletableFuture<String> read = readInFlight(servers.session(Consistency.eventual()));
        monitorSeesNewPrimary("0-1-6");
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> read.get(10, TimeUnit.SECONDS));
        assertInstanceOf(LostWriteException.class, failed.getCause().getCause(), "the rule's level, not the session's");
    }
}
