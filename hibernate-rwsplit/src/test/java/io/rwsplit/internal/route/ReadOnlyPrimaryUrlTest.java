package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A failover through a multi-host primary URL: once the primary is gone the URL leads to the next host, a replica
 * that is read-only (and may lack writes) until it is promoted. A read the primary must serve is then served by a
 * writable server only: it waits, as a read that lost the primary does, until the server behind the URL takes
 * writes (or a replica meets its requirement). Until the monitor sees a writable primary again, such reads check.
 */
class ReadOnlyPrimaryUrlTest {

    private final Servers servers;

    ReadOnlyPrimaryUrlTest() throws SQLException {
        servers = new Servers(2, "round_robin");
        servers.down(0);
        servers.down(1); // every read is one the primary must serve (NO_HEALTHY_REPLICA)
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private String read() throws SQLException {
        try (Connection c = servers.open()) {
            return Servers.who(c);
        }
    }

    /**
     * A read whose primary connection dies under it while the URL leads to a read-only server (a replica not promoted
     * yet), started on another thread; returned once it asked that server twice (or after 10 s).
     */
    private CompletableFuture<String> readWaitingOnAReadOnlyServer() {
        servers.primary.failNextExecutions.set(1); // the old primary's pooled connection is dead
        servers.primary.readOnly = true;           // and the URL now leads to a replica that is not promoted yet
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try {
                return read();
            }
            catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (servers.primary.readOnlyChecks.get() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return read;
    }

    @Test
    void aReadThatLostThePrimaryWaitsWhileTheServerBehindThePrimaryUrlIsReadOnly() throws Exception {
        CompletableFuture<String> read = readWaitingOnAReadOnlyServer();
        assertTrue(servers.primary.readOnlyChecks.get() >= 2, "the read asked the server again");
        assertFalse(read.isDone(), "not served by the read-only server");

        servers.primary.readOnly = false;          // promoted
        assertEquals("primary", read.get(10, TimeUnit.SECONDS));
        assertEquals(1L, servers.router.statistics().byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void aReadThatLostThePrimaryIsServedByAReplicaThatComesBackWhileItWaits() throws Exception {
        CompletableFuture<String> read = readWaitingOnAReadOnlyServer();
        assertTrue(servers.primary.readOnlyChecks.get() >= 2, "the read found no replica and waits on the primary URL");
        servers.up(0);                              // the monitor brings r1 back: each try looks for a replica again
        try {
            assertEquals("r1", read.get(10, TimeUnit.SECONDS));
        }
        finally {
            servers.primary.readOnly = false;       // lets a read still waiting end
        }
        assertEquals(1L, servers.router.statistics().byReason().get("RETRY_REPLICA"));
    }

    @Test
    void aConnectionWhoseCheckFailedIsGivenBackAndNeverOfferedAgain() throws SQLException {
        servers.router.primaryConnectionFailed();
        servers.primary.failNextReadOnlyChecks.set(1); // the pool lent a connection whose backend is gone
        assertEquals("primary", read());
        assertEquals(1, servers.primary.failedChecks.size());
        assertTrue(servers.primary.failedChecks.get(0).isClosed(), "given back to its pool, not kept for the next try");
        assertEquals(2, servers.primary.readOnlyChecks.get(), "the read checked the next connection");
    }

    @Test
    void aConnectionThePoolClosedUnderTheCheckIsAConnectionErrorAndTheReadTriesTheNext() throws SQLException {
        servers.router.primaryConnectionFailed();
        servers.primary.closeOnNextReadOnlyChecks.set(1); // "Connection is closed", without an SQLState
        assertEquals("primary", read());
        assertEquals(2, servers.primary.readOnlyChecks.get(), "the read checked the next connection");
        assertEquals(1L, servers.router.statistics().byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void readsTheMonitorHasSeenAWritablePrimaryForNoLongerCheck() throws SQLException {
        assertEquals("primary", read());
        assertEquals(0, servers.primary.readOnlyChecks.get(), "no failover suspected: no check");

        servers.clock.advanceMillis(10);
        servers.router.primaryConnectionFailed();
        assertEquals("primary", read());
        assertEquals(1, servers.primary.readOnlyChecks.get(), "a primary connection broke: the read checks");

        servers.router.primaryAnswered(true, servers.clock.nanoTime() - 5_000_000, null, null);
        assertEquals("primary", read());
        assertEquals(2, servers.primary.readOnlyChecks.get(), "an answer from before the failure ends nothing");

        servers.clock.advanceMillis(10);
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), null, null);
        assertEquals("primary", read());
        assertEquals(2, servers.primary.readOnlyChecks.get(), "the monitor saw a writable primary: no more checks");

        servers.router.primaryAnswered(false, servers.clock.nanoTime(), null, null);
        assertEquals("primary", read());
        assertEquals(3, servers.primary.readOnlyChecks.get(), "the monitor saw a read-only server: reads check");
    }
}
