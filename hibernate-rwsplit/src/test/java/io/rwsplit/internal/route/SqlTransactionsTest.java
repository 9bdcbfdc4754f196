package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A transaction begun by SQL ({@code BEGIN}; {@code START TRANSACTION} on the clusters, which H2 does not know) on an autocommit connection is followed as one
 * begun by {@code setAutoCommit(false)}: its statements run on the primary where it is open, and its writes count
 * once its {@code COMMIT} ran (none after a {@code ROLLBACK}). Consistency in time mode (H2): a read within the window
 * after a recorded write goes to the primary.
 */
class SqlTransactionsTest {

    private final Servers servers = new Servers(1, "round_robin", true);
    private final SessionRouting session = servers.session(Consistency.readYourWrites());

    SqlTransactionsTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private void windowPassed() {
        servers.pastEveryTimeWindow();
    }

    @Test
    void theStatementsOfATransactionBegunBySqlRunOnThePrimaryAndItsCommitCounts() throws SQLException {
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.execute("BEGIN TRANSACTION");
            st.executeUpdate("insert into item (label) values ('seven')");
            windowPassed();
            assertEquals("primary", Servers.who(c), "inside the transaction: where it is open");
            st.execute("COMMIT");
            windowPassed();
            assertEquals("primary", Servers.who(c), "the commit is the write: its window starts now");
            windowPassed();
            assertEquals("r1", Servers.who(c), "back to autocommit routing");
        }
    }

    @Test
    void aRolledBackTransactionBegunBySqlRecordsNothing() throws SQLException {
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.execute("BEGIN");
            st.executeUpdate("insert into item (label) values ('gone')");
            assertEquals("primary", Servers.who(c));
            st.execute("ROLLBACK");
            assertEquals("r1", Servers.who(c), "nothing was written that anyone can read");
        }
    }

    @Test
    void aRollbackToASavepointStaysInTheTransaction() throws SQLException {
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.execute("BEGIN");
            st.execute("SAVEPOINT s1");
            st.executeUpdate("insert into item (label) values ('x')");
            st.execute("ROLLBACK TO SAVEPOINT s1");
            windowPassed();
            assertEquals("primary", Servers.who(c), "still inside the transaction");
            st.execute("COMMIT");
        }
    }
}
