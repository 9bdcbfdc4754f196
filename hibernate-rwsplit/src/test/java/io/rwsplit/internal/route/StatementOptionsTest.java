package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The options of a {@code createStatement} statement ({@link StatementOptions}): each setter's last call is kept, once,
 * however often the application sets it, and the calls are replayed on every driver statement the statement moves to
 * in the order of those last calls, so that a driver that checks one option against another accepts them as it did.
 */
class StatementOptionsTest {

    private final Servers servers = new Servers(1, "round_robin");

    StatementOptionsTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** The calls {@code handle}'s statement would replay on a driver statement it moves to now. */
    private static List<String> replayed(Statement handle) throws ReflectiveOperationException, SQLException {
        Field target = handle.getClass().getDeclaredField("target");
        target.setAccessible(true);
        List<String> calls = new ArrayList<>();
        Statement driver = (Statement) Proxy.newProxyInstance(StatementOptionsTest.class.getClassLoader(),
                new Class<?>[] {Statement.class}, (proxy, method, args) -> {
                    calls.add(method.getName() + Arrays.toString(args == null ? new Object[0] : args));
                    return null;
                });
        ((RoutedStatement) target.get(handle)).replayOptions(driver);
        return calls;
    }

    private static void read(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("select name from who")) {
            rs.next();
        }
    }

    @Test
    void aStatementReusedWithItsOptionsSetBeforeEachQueryKeepsOneCallOfEach() throws Exception {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            for (int i = 1; i <= 500; i++) {
                s.setFetchSize(i);
                s.setQueryTimeout(5);
                read(s);
            }
            assertEquals(List.of("setFetchSize[500]", "setQueryTimeout[5]"), replayed(s),
                    "one call per option, not one per query (a list that grew for as long as the statement was used)");
            assertEquals(500, s.getFetchSize());
        }
    }

    @Test
    void theOptionsAreReplayedInTheOrderOfTheirLastCalls() throws Exception {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.setMaxRows(100);
            s.setFetchSize(50);
            s.setCursorName("first");
            s.setMaxRows(10);   // after the fetch size now: replayed after it
            s.closeOnCompletion();
            s.setCursorName("second");
            s.setLargeMaxRows(20);   // the same limit as setMaxRows: the later call wins
            s.setEscapeProcessing(false);
            s.setPoolable(true);
            assertEquals(List.of("setFetchSize[50]", "setMaxRows[10]", "closeOnCompletion[]", "setCursorName[second]",
                    "setLargeMaxRows[20]", "setEscapeProcessing[false]", "setPoolable[true]"), replayed(s));
        }
    }

    @Test
    void anOptionTheDriverChecksAgainstAnotherIsReplayedWhereItWasSet() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            // H2 refuses a fetch size above the max rows: replayed in the order first set, the fetch size would fail
            s.setMaxRows(100);
            s.setFetchSize(50);
            s.setMaxRows(10);
            read(s);   // a driver statement on the replica, the options replayed
            assertEquals(1, s.executeUpdate("insert into item (label) values ('a')"), "and again on the primary");
            assertEquals(10, s.getMaxRows());
            assertEquals(50, s.getFetchSize());
        }
    }

    @Test
    void anOptionSetAfterABatchWasAddedIsTheBatchsToo() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.addBatch("insert into item (label) values ('a')");   // a driver statement of its own, on the primary
            s.setQueryTimeout(7);
            s.executeBatch();
            assertEquals(7, s.getQueryTimeout(), "the batch ran with the timeout set before its execution");
        }
    }

    @Test
    void aValueTheDriverRefusesIsNotReplayedOnTheNextServer() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.setFetchSize(20);
            read(s);
            assertThrows(SQLException.class, () -> s.setFetchSize(-1), "refused by the replica's driver statement");
            assertEquals(1, s.executeUpdate("insert into item (label) values ('a')"),
                    "the statement moves to the primary with the options the driver took");
            assertEquals(20, s.getFetchSize());
        }
    }

    @Test
    void aStatementSetToCloseOnCompletionIsClosedOnceItsResultsAreClosed() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.closeOnCompletion();
            assertEquals(1, s.executeUpdate("insert into item (label) values ('a')"));
            assertFalse(s.isClosed(), "no results to close with: it stays open");
            read(s);   // its results closed: the driver statement closes with them, and so does the statement
            assertTrue(s.isClosed(), "closed, as JDBC says of a statement closed on completion");
            assertEquals("HY010", assertThrows(SQLException.class, () -> read(s)).getSQLState(),
                    "an execution after it throws instead of running on a new driver statement");
            assertEquals("HY010", assertThrows(SQLException.class, s::getFetchSize).getSQLState());
            try (Statement next = c.createStatement()) {
                read(next);   // the body serves the connection's next statement, which does not close on completion
                assertFalse(next.isClosed());
            }
        }
    }

    @Test
    void aBodyServesTheNextStatementWithNoneOfTheLastOnesOptions() throws Exception {
        try (Connection c = servers.open()) {
            Statement first = c.createStatement();
            first.setQueryTimeout(3);
            first.setCursorName("kept");
            first.close();
            try (Statement next = c.createStatement()) {
                assertEquals(List.of(), replayed(next));
                next.setFetchSize(5);
                assertEquals(List.of("setFetchSize[5]"), replayed(next));
            }
        }
    }
}
