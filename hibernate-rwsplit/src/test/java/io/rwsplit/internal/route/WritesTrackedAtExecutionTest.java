package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A write is tracked when it executes, not only when it is prepared: a prepared write executed again counts again,
 * and a prepared read executed after a write of the same connection is routed again, as a new read would be (one
 * server would show it the write). The replicas here never receive the primary's rows, and the consistency runs in
 * time mode (H2 has no replication position): a read within the window after a write goes to the primary.
 */
class WritesTrackedAtExecutionTest {

    private final Servers servers = new Servers(1, "round_robin", true);
    private final SessionRouting session = servers.session(Consistency.readYourWrites());

    WritesTrackedAtExecutionTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** Past the time window of every write so far: reads go to a replica again. */
    private void windowPassed() {
        servers.pastEveryTimeWindow();
    }

    /** {@code insert} runs once, a read records it, and its time window passes: reads go to a replica again. */
    private void firstExecutionLongAgo(Connection c, PreparedStatement insert) throws SQLException {
        insert.setString(1, "first");
        insert.executeUpdate();
        assertEquals("primary", Servers.who(c), "within the first write's window");
        windowPassed();
        assertEquals("r1", Servers.who(c), "the first write is old");
    }

    @Test
    void aPreparedWriteExecutedAgainIsAWriteAgain() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement insert = c.prepareStatement("insert into item (label) values (?)")) {
            firstExecutionLongAgo(c, insert);
            insert.setString(1, "second");
            insert.executeUpdate();
            assertEquals("primary", Servers.who(c), "the second execution is a write of its own");
        }
    }

    @Test
    void aPreparedBatchExecutedLaterIsAWrite() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement insert = c.prepareStatement("insert into item (label) values (?)")) {
            firstExecutionLongAgo(c, insert);
            insert.setString(1, "a");
            insert.addBatch();
            insert.setString(1, "b");
            insert.addBatch();
            insert.executeBatch();
            assertEquals("primary", Servers.who(c));
        }
    }

    @Test
    void aReadPreparedBeforeAWriteAndExecutedAfterItIsRoutedAgain() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            insert(c, "x");
            assertEquals("primary", name(read), "routed again after the write: the primary has it");
        }
    }

    @Test
    void aReadPreparedOnAReplicaAndExecutedInATransactionBegunSinceRunsOnThePrimary() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            assertEquals("r1", name(read));
            c.setAutoCommit(false);   // a read-write transaction: every statement of it on the primary
            assertEquals("primary", name(read), "routed again when the transaction began, with its parameters");
            c.commit();
            c.setAutoCommit(true);
            assertEquals("r1", name(read), "routed again when it ended");
        }
    }

    @Test
    void aReadPreparedOnAReplicaInATransactionMovesWithItsParametersIntoAReadWriteTransaction() throws SQLException {
        try (Connection c = servers.open(session)) {
            c.setReadOnly(true);
            c.setAutoCommit(false);   // a read-only transaction: on a replica
            try (PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
                read.setInt(1, 1);
                assertEquals("r1", name(read));
                c.commit();
                c.setAutoCommit(true);
                c.setReadOnly(false);
                c.setAutoCommit(false);   // a read-write transaction: its reads on the primary
                assertEquals("primary", name(read), "never read from r1 in it: moved, its parameter replayed");
                c.rollback();
            }
        }
    }

    @Test
    void aReadPreparedInAReadOnlyTransactionSeesAWriteMadeAfterIt() throws SQLException {
        try (Connection c = servers.open(session)) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            try (PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
                read.setInt(1, 1);
                assertEquals("r1", name(read));
                c.commit();
                c.setReadOnly(false);
                c.setAutoCommit(true);
                insert(c, "x");
                assertEquals("primary", name(read), "within the write's window: the primary, as a new read");
            }
        }
    }

    @Test
    void aReadWhoseStreamWasReadFailsRatherThanAnswerFromItsReplicaAfterAWrite() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ? and name <> ?")) {
            read.setInt(1, 1);
            read.setCharacterStream(2, new java.io.StringReader("nobody"));
            assertEquals("r1", name(read), "the execution reads the stream");
            insert(c, "x");
            SQLException e = assertThrows(SQLException.class, () -> name(read), "r1 may lack the write");
            assertEquals("0A000", e.getSQLState());
        }
    }

    @Test
    void aReadPreparedOnAReplicaIsRoutedAgainAfterAWriteOfAnotherSessionOfTheUnit() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            assertEquals("r1", name(read));
            try (Connection other = servers.open(servers.session(Consistency.readYourWrites()))) {
                insert(other, "elsewhere");
            }
            assertEquals("primary", name(read), "the unit's write is to be seen: routed again");
        }
    }

    @Test
    void aBoundedStalenessReadExecutedAgainLeavesAReplicaThatFellBehindTheBound() throws SQLException {
        SessionRouting bounded = servers.session(Consistency.boundedStaleness(java.time.Duration.ofMillis(100)));
        servers.set.probed(servers.nodes.get(0), io.rwsplit.spi.LagSample.of(50_000), null);
        try (Connection c = servers.open(bounded);
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            assertEquals("r1", name(read), "50 ms behind: within the bound");
            servers.set.probed(servers.nodes.get(0), io.rwsplit.spi.LagSample.of(300_000), null);   // in rotation still
            assertEquals("primary", name(read), "300 ms behind: routed again, to the primary");
        }
    }

    @Test
    void aReadExecutedBeforeAndAfterAWriteIsRoutedAgainWithItsParameters() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            read.setQueryTimeout(5);
            assertEquals("r1", name(read));
            insert(c, "x");
            assertEquals("primary", name(read), "the same parameters, on the primary");
            assertEquals(5, read.getQueryTimeout(), "its options moved with it");
            windowPassed();
            assertEquals("primary", name(read), "no write since it was last routed: it stays");
            insert(c, "y");
            assertEquals("primary", Servers.who(c), "a new read after the write");
            windowPassed();
            assertEquals("r1", name(read), "routed again: the write is old, a replica may serve it");
        }
    }

    @Test
    void aReadExecutedHundredsOfTimesWithNewParametersIsStillRoutedAgainAfterAWrite() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ? and ? > 0")) {
            for (int i = 1; i <= 300; i++) {   // 600 setter calls: each execution replaces the values
                read.setInt(1, 1);
                read.setInt(2, i);
                assertEquals("r1", name(read));
            }
            read.setFetchSize(7);
            insert(c, "x");
            assertEquals("primary", name(read), "routed again with its last parameters");
            assertEquals(7, read.getFetchSize(), "and its last options");
        }
    }

    @Test
    void aReadWhoseStreamParameterIsSetAgainMovesWithItAfterAWrite() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ? and name <> ?")) {
            read.setInt(1, 1);
            read.setCharacterStream(2, new java.io.StringReader("nobody"));
            assertEquals("r1", name(read), "the execution reads the stream");
            insert(c, "x");
            read.setCharacterStream(2, new java.io.StringReader("nobody"));   // a new stream, not read yet
            assertEquals("primary", name(read), "replayed on the primary before its execution reads it");
        }
    }

    @Test
    void aReadPreparedWithAStreamMovesBeforeItsFirstExecution() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ? and name <> ?")) {
            read.setInt(1, 1);
            read.setCharacterStream(2, new java.io.StringReader("nobody"));
            insert(c, "x");
            assertEquals("primary", name(read));
        }
    }

    @Test
    void aWritePreparedEarlierIsRefusedWhenItExecutesOnAReadOnlyConnection() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement write = c.prepareStatement("insert into item (label) values (?)")) {
            c.setReadOnly(true);
            write.setString(1, "x");
            SQLException e = assertThrows(SQLException.class, write::executeUpdate);
            assertEquals("25006", e.getSQLState());
        }
        try (java.sql.Connection primary = servers.primary.getConnection(); Statement s = primary.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from item")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "nothing written");
        }
    }

    @Test
    void aWritePreparedEarlierMovesAReadOnlyByPreferenceTransactionToThePrimary() throws SQLException {
        SessionRouting eventual = servers.session(Consistency.eventual());
        try (Connection c = servers.open(eventual);
             PreparedStatement write = c.prepareStatement("insert into item (label) values (?)")) {
            eventual.pushIntent(io.rwsplit.Intent.REPLICA);
            c.setAutoCommit(false);   // read-only by preference
            write.setString(1, "mine");
            write.executeUpdate();
            assertEquals("primary", Servers.who(c), "the rest of the transaction reads its own write");
            c.rollback();
        }
    }

    @Test
    void aCallPreparedEarlierIsRefusedWhenItExecutesOnAReadOnlyConnection() throws SQLException {
        try (Connection c = servers.open(session);
             java.sql.CallableStatement call = c.prepareCall("call 1")) {
            c.setReadOnly(true);
            SQLException e = assertThrows(SQLException.class, call::execute);
            assertEquals("25006", e.getSQLState());
        }
    }

    @Test
    void aLockingReadPreparedEarlierMovesAReadOnlyByPreferenceTransactionToThePrimary() throws SQLException {
        SessionRouting eventual = servers.session(Consistency.eventual());
        try (Connection c = servers.open(eventual);
             PreparedStatement lock = c.prepareStatement("select name from who where id = ? for update")) {
            eventual.pushIntent(io.rwsplit.Intent.REPLICA);
            c.setAutoCommit(false);   // read-only by preference
            assertEquals("r1", Servers.who(c));
            lock.setInt(1, 1);
            assertEquals("primary", name(lock));
            assertEquals("primary", Servers.who(c), "the rest of the transaction runs where its lock is");
            c.rollback();
        }
    }

    @Test
    void aStatementsBatchOfWritesIsRefusedOnceItsConnectionIsReadOnly() throws SQLException {
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.addBatch("insert into item (label) values ('x')");
            c.setReadOnly(true);
            SQLException e = assertThrows(SQLException.class, st::executeBatch);
            assertEquals("25006", e.getSQLState());
        }
    }

    @Test
    void clearedParametersAreNotReplayed() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);
            assertEquals("r1", name(read));
            read.clearParameters();
            insert(c, "x");
            org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> name(read),
                    "as on one server: the parameter is not set");
            read.setInt(1, 1);
            assertEquals("primary", name(read), "moved, and set again");
        }
    }

    @Test
    void aWriteStatementOfAnEarlierTransactionExecutedInALaterOneCountsAtItsCommit() throws SQLException {
        try (Connection c = servers.open(session);
             PreparedStatement insert = c.prepareStatement("insert into item (label) values (?)")) {
            c.setAutoCommit(false);
            insert.setString(1, "first");
            insert.executeUpdate();
            c.commit();
            windowPassed();
            insert.setString(1, "second");
            insert.executeUpdate();
            c.commit();
            c.setAutoCommit(true);
            assertEquals("primary", Servers.who(c), "the second transaction wrote");
        }
    }

    /** A write on the logical connection {@code c}, as a plain statement. */
    private static void insert(Connection c, String label) throws SQLException {
        try (Statement write = c.createStatement()) {
            write.executeUpdate("insert into item (label) values ('" + label + "')");
        }
    }

    private static String name(PreparedStatement read) throws SQLException {
        try (ResultSet rs = read.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }
}
