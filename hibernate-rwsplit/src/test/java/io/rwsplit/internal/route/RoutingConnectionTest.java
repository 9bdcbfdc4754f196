package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connection Hibernate sees, on its own: opened lazily, closed once with both physical connections given back,
 * refusing work once closed, and doing connection-level work (savepoints, unwrap, validity, abort) on the connection
 * of the current transaction.
 */
class RoutingConnectionTest {

    private final Servers servers = new Servers(1, "round_robin");

    RoutingConnectionTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private int handedOut() {
        return servers.primary.handedOut.size() + servers.replicas.get(0).handedOut.size();
    }

    @Test
    void opensNoPhysicalConnectionUntilAStatementIsPreparedOrExecuted() throws SQLException {
        try (Connection c = servers.open()) {
            Statement s = c.createStatement();
            s.setFetchSize(10);
            assertEquals(0, handedOut(), "a statement that has not run needs no server");
            assertTrue(c.getAutoCommit());
            assertFalse(c.isReadOnly());
            assertSame(c, s.getConnection());
        }
        assertEquals(0, handedOut());
    }

    @Test
    void aStatementLeftOpenRefusesEveryExecutionOnceItsConnectionIsClosed() throws SQLException {
        Connection c = servers.open();
        PreparedStatement read = c.prepareStatement("select name from who where id = ?");
        read.setInt(1, 1);
        try (ResultSet rs = read.executeQuery()) {
            assertTrue(rs.next());
        }
        c.close();   // its parts, and the driver statement's connection, may serve another session now
        assertEquals("08003", assertThrows(SQLException.class, read::executeQuery).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, read::executeUpdate).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, read::executeLargeUpdate).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, read::executeBatch).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, read::executeLargeBatch).getSQLState());
    }

    @Test
    void closingGivesBothConnectionsBackOnceAndTheClosedConnectionRefusesWork() throws SQLException {
        Connection c = servers.open();
        assertEquals("r1", who(c));
        try (Statement s = c.createStatement()) {
            s.executeUpdate("insert into item (label) values ('x')");
        }
        Connection primary = servers.primary.handedOut.get(0);
        Connection replica = servers.replicas.get(0).handedOut.get(0);
        c.close();
        assertTrue(primary.isClosed());
        assertTrue(replica.isClosed());
        assertTrue(c.isClosed());
        assertFalse(c.isValid(1));
        c.close(); // harmless

        assertEquals("08003", assertThrows(SQLException.class, () -> c.prepareStatement("select 1")).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, c::createStatement).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, c::commit).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, () -> c.setAutoCommit(false)).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, c::getMetaData).getSQLState());
        assertEquals(2, handedOut(), "nothing opened after the close");
    }

    @Test
    void theMetaDataReadsThePrimaryConnectionAFailoverOpenedInPlaceOfTheOneItWasMadeOn() throws SQLException {
        servers.down(0);   // every read is one the primary must serve
        try (Connection c = servers.open()) {
            java.sql.DatabaseMetaData meta = c.getMetaData();
            servers.primary.failNextExecutions.set(1);   // the primary connection breaks under an autocommit read
            assertEquals("primary", who(c), "served on a new primary connection");
            assertEquals(2, servers.primary.handedOut.size());
            assertTrue(servers.primary.handedOut.get(0).isClosed(), "the broken one went back to its pool");
            try (java.sql.ResultSet tables = meta.getTables(null, null, "WHO", null)) {
                assertTrue(tables.next(), "answered through the new primary connection");
            }
        }
    }

    @Test
    void theMetaDataOfAClosedConnectionRefusesWorkAndStillNamesItsConnection() throws SQLException {
        Connection c = servers.open();
        java.sql.DatabaseMetaData meta = c.getMetaData();
        assertEquals("H2", meta.getDatabaseProductName());
        c.close();   // the primary connection goes back to its pool, which may lend it to another session
        assertEquals("08003", assertThrows(SQLException.class, meta::getDatabaseProductName).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, meta::getURL).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class,
                () -> meta.getTables(null, null, "WHO", null)).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class,
                () -> meta.unwrap(org.h2.jdbc.JdbcDatabaseMetaData.class)).getSQLState());
        assertSame(c, meta.getConnection(), "the routing connection, closed, as drivers answer");
    }

    @Test
    void aReadWhoseConnectionIsAbortedWhileItBorrowsFailsAndItsBorrowedConnectionLeavesThePool() throws Exception {
        Connection c = servers.open();
        Statement created = c.createStatement();
        io.rwsplit.testing.H2Server.Hold hold = servers.replicas.get(0).holdLends();   // the abort comes meanwhile
        java.util.concurrent.CompletableFuture<SQLException> read = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = created.executeQuery("select name from who")) {
                return null;
            }
            catch (SQLException e) {
                return e;
            }
        });
        assertTrue(hold.awaitLending(), "the read waits for its replica connection");
        c.abort(Runnable::run);
        hold.release();
        SQLException failure = read.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(failure != null && "08003".equals(failure.getSQLState()), "the read fails as on a closed connection: "
                + failure);
        assertEquals(1, servers.replicas.get(0).evicted.get(), "the connection borrowed after the abort was discarded");
        assertEquals(0, servers.nodes.get(0).lentCount(), "no place of the replica's pool is held any more");
    }

    @Test
    void aWriteWhoseConnectionIsAbortedWhileItBorrowsFailsAndItsBorrowedConnectionLeavesThePool() throws Exception {
        Connection c = servers.open();
        Statement created = c.createStatement();
        io.rwsplit.testing.H2Server.Hold hold = servers.primary.holdLends();   // the abort comes meanwhile
        java.util.concurrent.CompletableFuture<SQLException> write = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                created.executeUpdate("insert into item (label) values ('x')");
                return null;
            }
            catch (SQLException e) {
                return e;
            }
        });
        assertTrue(hold.awaitLending(), "the write waits for its primary connection");
        c.abort(Runnable::run);
        hold.release();
        SQLException failure = write.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(failure != null && "08003".equals(failure.getSQLState()), "the write fails as on a closed connection: "
                + failure);
        assertEquals(1, servers.discarded.get(), "the connection borrowed after the abort was discarded");
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aCloseAndAnAbortAtOnceHandleEachPhysicalConnectionOnce() throws Exception {
        // the close of the owner's thread and the abort of another (a watchdog) at the same instant: exactly one of them
        // takes the parts; a primary connection both given back to be lent again and aborted would be aborted under its
        // next borrower. Both threads spin (no sleep, no barrier's wake-up), the owner waiting a varying number of spins
        // before its close, so that the abort falls on every instant of the close's start over the rounds
        int rounds = 5_000;
        java.util.concurrent.atomic.AtomicInteger go = new java.util.concurrent.atomic.AtomicInteger(-1);
        java.util.concurrent.atomic.AtomicInteger aborted = new java.util.concurrent.atomic.AtomicInteger(-1);
        java.util.concurrent.atomic.AtomicReference<Connection> current = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread watchdog = new Thread(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    while (go.get() < i) {
                        Thread.onSpinWait();
                    }
                    current.get().abort(Runnable::run);
                    aborted.set(i);
                }
            }
            catch (Throwable t) {
                failed.set(t);
                aborted.set(Integer.MAX_VALUE);
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < rounds; i++) {
            Connection c = servers.open();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into item (label) values ('x')");   // holds a primary connection
            }
            current.set(c);
            int before = servers.released.get();
            int spins = random.nextInt(64);
            go.set(i);
            for (int k = 0; k < spins; k++) {
                Thread.onSpinWait();
            }
            c.close();
            while (aborted.get() < i) {
                Thread.onSpinWait();
            }
            assertNull(failed.get());
            // given back once: by the close, to be lent again, or by the abort, for good (evicted, then given back)
            assertEquals(before + 1, servers.released.get(), "round " + i + ": the primary connection given back once");
        }
    }

    @Test
    void abortClosesTheLogicalConnectionAndAbortsBothPhysicalOnes() throws SQLException {
        Connection c = servers.open();
        assertEquals("r1", who(c));
        try (Statement s = c.createStatement()) {
            s.executeUpdate("insert into item (label) values ('x')");
        }
        c.abort(Runnable::run);
        assertTrue(c.isClosed());
        assertEquals(1, servers.primary.aborted.size());
        assertEquals(1, servers.replicas.get(0).aborted.size());
        c.close();   // as after any abort: nothing more to give back
        assertEquals(1, servers.discarded.get(), "the primary's pool got its aborted connection back, for good");
        assertEquals(1, servers.replicas.get(0).evicted.get(), "so did the replica's");
        assertEquals(0, servers.nodes.get(0).lentCount(), "no place of the replica's pool is held any more");
    }

    @Test
    @org.junit.jupiter.api.Timeout(10)   // the drivers' chains once linked into a loop: a third call never returned
    void theWarningsOfBothConnectionsAreOneChainAsOftenAsAsked() throws SQLException {
        servers.primary.warnings = new java.sql.SQLWarning("on the primary");
        servers.replicas.get(0).warnings = new java.sql.SQLWarning("on the replica");
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c));
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into item (label) values ('x')");
            }
            for (int call = 1; call <= 3; call++) {
                java.sql.SQLWarning w = c.getWarnings();
                assertEquals("on the primary", w.getMessage(), "call " + call);
                assertEquals("on the replica", w.getNextWarning().getMessage(), "call " + call);
                assertEquals(null, w.getNextWarning().getNextWarning(), "call " + call);
            }
        }
        assertEquals(null, servers.primary.warnings.getNextWarning(), "the driver's own chain is left as it was");
    }

    /** A driver's own kind of warning, with what only its type tells (as PostgreSQL's server message). */
    static final class DriverWarning extends java.sql.SQLWarning {
        final String detail;

        DriverWarning(String reason, String detail) {
            super(reason, "01000");
            this.detail = detail;
        }
    }

    @Test
    void warningsOfBothConnectionsKeepTheirKind() throws SQLException {
        java.sql.DataTruncation truncated = new java.sql.DataTruncation(2, true, false, 12, 8);
        DriverWarning driver = new DriverWarning("on the replica", "the server's own words");
        servers.primary.warnings = truncated;
        servers.replicas.get(0).warnings = driver;
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c));
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into item (label) values ('x')");
            }
            java.sql.SQLWarning w = c.getWarnings();
            java.sql.DataTruncation t = assertInstanceOf(java.sql.DataTruncation.class, w, "a truncation stays one");
            assertEquals(List.of(2, true, false, 12, 8),
                    List.of(t.getIndex(), t.getParameter(), t.getRead(), t.getDataSize(), t.getTransferSize()));
            assertEquals(truncated.getSQLState(), t.getSQLState());
            java.sql.SQLWarning next = w.getNextWarning();
            assertEquals("on the replica", next.getMessage());
            assertSame(driver, next.getCause(), "the driver's warning, with what its type tells");
            assertEquals("the server's own words", ((DriverWarning) next.getCause()).detail);
        }
    }

    @Test
    void savepointsWorkOnTheWritingTransactionsConnection() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into item (label) values ('kept')");
                Savepoint before = c.setSavepoint();
                s.executeUpdate("insert into item (label) values ('undone')");
                c.rollback(before);
            }
            c.commit();
        }
        assertEquals("kept", servers.primary.read("select group_concat(label) from item"));
    }

    @Test
    void unwrapGivesTheRoutingConnectionItselfOrTheDriversConnection() throws SQLException {
        try (Connection c = servers.open()) {
            assertSame(c, c.unwrap(RoutingConnection.class));
            assertTrue(c.isWrapperFor(RoutingConnection.class));
            assertTrue(c.isWrapperFor(org.h2.jdbc.JdbcConnection.class));
            assertEquals(org.h2.jdbc.JdbcConnection.class, c.unwrap(org.h2.jdbc.JdbcConnection.class).getClass());
        }
    }

    @Test
    void aWriteThroughTheUnwrappedDriverConnectionIsOnThePrimaryAndReadBack() throws SQLException {
        try (Servers tracking = new Servers(1, "round_robin", true)) {
            SessionRouting session = tracking.session(io.rwsplit.Consistency.readYourWrites());
            try (Connection c = tracking.open(session)) {
                assertEquals("r1", who(c));
                Connection driver = c.unwrap(org.h2.jdbc.JdbcConnection.class);
                try (Statement s = driver.createStatement()) {
                    s.executeUpdate("insert into item (label) values ('raw')");
                }
                assertEquals("primary", who(c), "past routing: the rest of the connection stays on the primary");
            }
            assertEquals("raw", tracking.primary.read("select group_concat(label) from item"));
            try (Connection next = tracking.open(session)) {
                assertEquals("primary", who(next), "the write is recorded: within its window, the primary");
            }
        }
    }

    @Test
    void aWriteThroughTheDriverConnectionAfterALaterRoutedStatementIsStillRecorded() throws SQLException {
        try (Servers tracking = new Servers(1, "round_robin", true)) {
            SessionRouting session = tracking.session(io.rwsplit.Consistency.readYourWrites());
            try (Connection c = tracking.open(session)) {
                Connection driver = c.unwrap(org.h2.jdbc.JdbcConnection.class);
                assertEquals("primary", who(c), "a routed statement records what was pending");
                tracking.pastEveryTimeWindow();
                try (Statement s = driver.createStatement()) {
                    s.executeUpdate("insert into item (label) values ('raw')");   // seen by no routing
                }
            }
            try (Connection next = tracking.open(session)) {
                assertEquals("primary", who(next), "recorded when the logical connection closed");
            }
        }
    }

    @Test
    void theDriverConnectionOfAReadOnlyTransactionTheGateSendsToThePrimaryIsThePrimarys() throws SQLException {
        try (Servers tracking = new Servers(1, "round_robin", true)) {
            SessionRouting session = tracking.session(io.rwsplit.Consistency.readYourWrites());
            try (Connection c = tracking.open(session)) {
                assertEquals("r1", who(c), "a replica connection is open from before");
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("insert into item (label) values ('mine')");
                }
                c.setReadOnly(true);
                c.setAutoCommit(false);
                assertEquals("primary", who(c.unwrap(org.h2.jdbc.JdbcConnection.class)),
                        "the session must see its write: the transaction reads the primary");
                c.rollback();
            }
        }
    }

    @Test
    void anUnwrapThatFailsChangesNothing() throws SQLException {
        try (Connection c = servers.open()) {
            assertThrows(SQLException.class, () -> c.unwrap(String.class));
            assertEquals("r1", who(c), "not pinned by a failed unwrap");
        }
    }

    @Test
    void anArrayForAReplicaReadOpensNoPrimaryConnection() throws SQLException {
        try (Connection c = servers.open()) {
            assertEquals("r1", who(c));
            java.sql.Array ids = c.createArrayOf("INTEGER", new Object[] {1, 2});
            try (java.sql.PreparedStatement ps = c.prepareStatement("select name from who where array_contains(?, id)")) {
                ps.setArray(1, ids);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("r1", rs.getString(1));
                }
            }
            assertEquals(0, servers.primary.handedOut.size(), "a primary connection borrowed for nothing");
        }
    }

    @Test
    void aReadOnlyTransactionsConnectionLevelWorkRunsOnItsReplica() throws SQLException {
        try (Connection c = servers.open()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertEquals("r1", who(c));
            assertTrue(c.nativeSQL("select 1").contains("1"));
            assertEquals(0, servers.primary.handedOut.size(), "the read-only transaction never needed the primary");
            c.commit();
        }
    }
}
