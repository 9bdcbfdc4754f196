package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A driver that moves a connection to another server without an error (MariaDB Connector/J on a multi-host primary
 * URL re-opens it on the next host when its server is gone): a read on the primary whose connection is now on a
 * read-only server is not answered from there. Reads on the addresses the primary URL was seen writable at are not
 * checked; a new address is checked once; a driver that cannot say is never checked.
 */
class MovedPrimaryConnectionTest {

    private final Servers servers;

    MovedPrimaryConnectionTest() throws SQLException {
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

    /** The rows labelled {@code label} on the primary's server, counted there directly. */
    private int itemsLabelled(String label) throws SQLException {
        try (Connection c = servers.primary.getConnection();
             PreparedStatement ps = c.prepareStatement("select count(*) from item where label = ?")) {
            ps.setString(1, label);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getInt(1);
            }
        }
    }

    private String createdRead() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select name from who")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private CompletableFuture<String> readAsync() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return read();
            }
            catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private void awaitChecks(int checks) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (servers.primary.readOnlyChecks.get() < checks && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(servers.primary.readOnlyChecks.get() >= checks, "the read asked the server " + checks + " times");
    }

    @Test
    void aReadWhoseConnectionWasMovedToAReadOnlyServerIsNotAnsweredThereAndWaitsForAWritableOne() throws Exception {
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), "primary:3307", null);
        servers.primaryAddress = "replica1:3308";   // the driver re-opened the pooled connection on replica 1
        servers.primary.readOnly = true;
        CompletableFuture<String> read = readAsync();
        awaitChecks(2);   // the moved connection, then the next one the read tries while a failover may be under way
        assertFalse(read.isDone(), "not answered by the read-only server");
        assertTrue(servers.discarded.get() >= 1, "the moved connection is given back for good");
        assertTrue(servers.router.primarySuspect(), "a failover may be under way");

        servers.primary.readOnly = false;           // replica 1 promoted
        assertEquals("primary", read.get(10, TimeUnit.SECONDS));
        assertEquals(1L, servers.router.statistics().byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void aCreatedStatementsReadIsCheckedToo() throws Exception {
        servers.primaryAddress = "replica1:3308";
        servers.primary.readOnly = true;
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try {
                return createdRead();
            }
            catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        awaitChecks(2);
        assertFalse(read.isDone(), "not answered by the read-only server");
        servers.primary.readOnly = false;
        assertEquals("primary", read.get(10, TimeUnit.SECONDS));
    }

    @Test
    void theFirstReadOfATransactionOnAMovedConnectionFailsTheTransaction() throws SQLException {
        servers.primaryAddress = "replica1:3308";   // moved when the transaction began (the driver's set autocommit)
        servers.primary.readOnly = true;
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("select name from who")) {
                SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, ps::executeQuery);
                assertEquals("08003", e.getSQLState());
            }
            assertEquals(0, servers.discarded.get(), "a transaction keeps its connection to its end");
            c.rollback();
        }
        assertEquals(1, servers.discarded.get(), "then it is given back for good");
        assertTrue(servers.router.primarySuspect());
    }

    @Test
    void aReadAfterAWriteInATransactionOnAMovedConnectionFails() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            try (PreparedStatement w = c.prepareStatement("insert into item (label) values ('a')")) {
                w.executeUpdate();
            }
            servers.primaryAddress = "replica1:3308";
            servers.primary.readOnly = true;
            try (PreparedStatement ps = c.prepareStatement("select name from who");
                 Statement s = c.createStatement()) {
                assertEquals("08003", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        ps::executeQuery).getSQLState());
                assertEquals("08003", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> s.executeQuery("select name from who")).getSQLState());
            }
            assertEquals(0, servers.discarded.get(), "the rest of the transaction stayed on its connection");
            assertEquals(1, servers.primary.readOnlyChecks.get(), "found once: the next read fails without asking");
            c.rollback();
        }
        assertEquals(1, servers.discarded.get(), "given back for good at the end");
    }

    @Test
    void aWriteOnAMovedConnectionDoesNotRunThere() throws SQLException {
        servers.primaryAddress = "replica1:3308";
        servers.primary.readOnly = true;
        try (Connection c = servers.open();
             PreparedStatement w = c.prepareStatement("insert into item (label) values ('moved')")) {
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, w::executeUpdate);
            assertEquals("08003", e.getSQLState());
        }
        assertEquals(0, itemsLabelled("moved"), "never sent");
        assertEquals(1, servers.discarded.get());
    }

    @Test
    void aCreatedStatementsBatchOnAMovedConnectionIsNeverSent() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.addBatch("insert into item (label) values ('batched')");
            servers.primaryAddress = "replica1:3308";
            servers.primary.readOnly = true;
            assertEquals("08003", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, s::executeBatch)
                    .getSQLState());
        }
        assertEquals(0, itemsLabelled("batched"), "never sent");
    }

    @Test
    void readsOnAnAddressThePrimaryUrlWasSeenWritableAtAreNotChecked() throws SQLException {
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), "primary:3307", null);
        servers.primaryAddress = "primary:3307";
        assertEquals("primary", read());
        assertEquals("primary", read());
        assertEquals(0, servers.primary.readOnlyChecks.get());
    }

    @Test
    void aNewWritableAddressIsCheckedOnceAndRemembered() throws SQLException {
        servers.primaryAddress = "primary:3307";    // before the monitor's first look
        assertEquals("primary", read());
        assertEquals("primary", read());
        assertEquals(1, servers.primary.readOnlyChecks.get());
        assertFalse(servers.router.primarySuspect());
        assertNull(servers.router.statistics().byReason().get("RETRY_PRIMARY"));
        assertEquals(0, servers.discarded.get());
    }

    @Test
    void aSuspectedPrimaryForgetsWhereItWasSeenWritable() throws SQLException {
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), "primary:3307", null);
        servers.primaryAddress = "primary:3307";
        servers.clock.advanceMillis(10);
        servers.router.primaryConnectionFailed();
        servers.clock.advanceMillis(10);
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), null, null);   // writable, address unknown
        assertEquals("primary", read());
        assertEquals(1, servers.primary.readOnlyChecks.get(), "the old primary's address is asked about again");
    }

    @Test
    void aDriverThatCannotSayWhereItsConnectionIsIsNeverChecked() throws SQLException {
        assertEquals("primary", read());
        assertEquals(0, servers.primary.readOnlyChecks.get());
        assertEquals(0, servers.discarded.get());
    }
}
