package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;

/**
 * A savepoint (JDBC {@code setSavepoint}, or SQL {@code SAVEPOINT}) goes where the reads of its transaction run, and
 * its rollback and release with it: set before the first read of a read-only transaction, it is routed as that read
 * would be (the replica, or the primary when the consistency gate says so); set after a first read on a replica, it
 * stays on that replica, also once something pinned the connection; in a read-only transaction the consistency gate
 * sent to the primary, it is on the primary; in a read-only-by-preference
 * transaction it moves the rest to the primary, as a write does, so that a write after it is undone by a rollback to
 * it. H2 rolls a JDBC savepoint back on the connection that made it whichever connection is asked, so where a
 * savepoint is shows through SQL {@code ROLLBACK TO SAVEPOINT}, where reads run, and whether a write survives.
 * Consistency in time mode (H2): a read within the window after a recorded write goes to the primary.
 */
class SavepointRoutingTest {

    private final Servers servers = new Servers(1, "round_robin", true);
    private final SessionRouting session = servers.session(Consistency.readYourWrites());

    SavepointRoutingTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** A strict read-only transaction on a new connection of the session: no statement of it yet. */
    private Connection readOnlyTransaction() throws SQLException {
        Connection c = servers.open(session);
        c.setReadOnly(true);
        c.setAutoCommit(false);
        return c;
    }

    /** A read-only-by-preference transaction (onReplica) on a new connection of the session: no statement yet. */
    private Connection preferredReadOnlyTransaction() throws SQLException {
        session.pushIntent(Intent.REPLICA);
        Connection c = servers.open(session);
        c.setAutoCommit(false);
        return c;
    }

    @Test
    void aNamedSavepointBeforeTheFirstReadIsSetWhereTheTransactionWillRead() throws SQLException {
        try (Connection c = readOnlyTransaction(); Statement st = c.createStatement()) {
            Savepoint sp = c.setSavepoint("s");
            assertEquals("r1", who(c), "routed as its first read would be: the replica, with the savepoint");
            st.execute("ROLLBACK TO SAVEPOINT \"s\"");   // fails (90063) where the savepoint is not
            c.rollback(sp);
            c.releaseSavepoint(sp);
            assertEquals("r1", who(c), "still on the replica after the rollback to it");
            c.commit();
        }
    }

    @Test
    void anUnnamedSavepointBeforeTheFirstReadIsSetWhereTheTransactionWillRead() throws SQLException {
        try (Connection c = readOnlyTransaction()) {
            Savepoint sp = c.setSavepoint();
            assertEquals("r1", who(c), "the transaction's reads run where its savepoint is");
            c.rollback(sp);
            assertEquals("r1", who(c));
            c.commit();
        }
    }

    @Test
    void anSqlSavepointBeforeTheFirstReadIsSetWhereTheTransactionWillRead() throws SQLException {
        try (Connection c = readOnlyTransaction(); Statement st = c.createStatement()) {
            st.execute("SAVEPOINT s1");
            assertEquals("r1", who(c), "the transaction's reads run where its savepoint is");
            st.execute("ROLLBACK TO SAVEPOINT s1");   // fails where the savepoint is not
            assertEquals("r1", who(c));
            c.commit();
        }
    }

    /** Guard: a savepoint after the first read already went to the replica connection, where the reads run. */
    @Test
    void aSavepointAfterTheFirstReplicaReadIsOnThatReplica() throws SQLException {
        try (Connection c = readOnlyTransaction(); Statement st = c.createStatement()) {
            assertEquals("r1", who(c));
            Savepoint sp = c.setSavepoint("s");
            st.execute("ROLLBACK TO SAVEPOINT \"s\"");   // the SQL rollback finds it where the reads run
            assertEquals("r1", who(c));
            c.rollback(sp);
            c.releaseSavepoint(sp);
            assertEquals("r1", who(c));
            c.commit();
        }
    }

    @Test
    void anSqlSavepointAfterTheFirstReplicaReadIsOnThatReplica() throws SQLException {
        try (Connection c = readOnlyTransaction(); Statement st = c.createStatement()) {
            assertEquals("r1", who(c));
            st.execute("SAVEPOINT s1");
            assertEquals("r1", who(c));
            st.execute("ROLLBACK TO SAVEPOINT s1");
            st.execute("SAVEPOINT s2");
            try (Statement onReplica = replicaConnection().createStatement()) {
                onReplica.execute("ROLLBACK TO SAVEPOINT S2");   // the savepoint is in the replica's transaction
            }
            assertEquals("r1", who(c));
            c.commit();
        }
    }

    @Test
    void aSavepointOfAReadOnlyTransactionTheGateSentToThePrimaryIsOnThePrimary() throws SQLException {
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            assertEquals("r1", who(c), "an autocommit read opens the replica connection");
            st.executeUpdate("insert into item (label) values ('mine')");
            c.setAutoCommit(false);
            c.setReadOnly(true);
            Savepoint sp = c.setSavepoint("s");
            assertEquals("primary", who(c), "within the write's window: the session must see it");
            st.execute("ROLLBACK TO SAVEPOINT \"s\"");   // the savepoint is with the reads, not on r1
            c.rollback(sp);
            assertEquals("primary", who(c));
            c.commit();
        }
    }

    @Test
    void aWriteAfterASavepointOfAReadOnlyByPreferenceTransactionIsUndoneByARollbackToIt() throws SQLException {
        try (Connection c = preferredReadOnlyTransaction(); Statement st = c.createStatement()) {
            assertEquals("r1", who(c));
            Savepoint sp = c.setSavepoint("s");
            st.executeUpdate("insert into item (label) values ('undone')");
            c.rollback(sp);
            c.commit();
        }
        assertEquals(List.of(), primaryItems(), "the rollback to the savepoint undid the insert");
    }

    @Test
    void anSqlSavepointMovesTheRestOfAReadOnlyByPreferenceTransactionToThePrimary() throws SQLException {
        try (Connection c = preferredReadOnlyTransaction(); Statement st = c.createStatement()) {
            assertEquals("r1", who(c));
            st.execute("SAVEPOINT s1");
            assertEquals("primary", who(c), "moved to the primary by the savepoint, as by a write");
            st.executeUpdate("insert into item (label) values ('undone')");
            st.execute("ROLLBACK TO SAVEPOINT s1");
            c.commit();
        }
        assertEquals(List.of(), primaryItems(), "the rollback to the savepoint undid the insert");
    }

    @Test
    void aSavepointBeforeTheFirstReadOfATransactionTheGateSendsToThePrimaryIsOnThePrimary() throws SQLException {
        try (Connection c = servers.open(session); Statement st = c.createStatement()) {
            st.executeUpdate("insert into item (label) values ('mine')");
            c.setAutoCommit(false);
            c.setReadOnly(true);
            Savepoint sp = c.setSavepoint("s");
            assertEquals("primary", who(c), "within the write's window: the session must see it");
            st.execute("ROLLBACK TO SAVEPOINT \"s\"");
            c.rollback(sp);
            c.commit();
            servers.pastEveryTimeWindow();
            Savepoint again = c.setSavepoint();
            assertEquals("r1", who(c), "the next transaction, its write long applied, reads the replica");
            c.rollback(again);
            c.rollback();
            assertEquals("r1", who(c));
            c.commit();
        }
    }

    @Test
    void aSavepointOnTheReplicaIsRolledBackToThereAfterTheConnectionWasPinned() throws SQLException {
        try (Connection c = readOnlyTransaction(); Statement st = c.createStatement()) {
            assertEquals("r1", who(c));
            Savepoint sp = c.setSavepoint("s");
            st.execute("SET @x = 1");   // state no replica can have: the rest of the connection is pinned
            assertEquals("primary", who(c));
            c.rollback(sp);
            st.execute("ROLLBACK TO SAVEPOINT \"s\"");
            c.releaseSavepoint(sp);
            c.commit();
        }
    }

    /** The one physical connection r1 lent: the replica connection of the transaction. */
    private Connection replicaConnection() {
        List<Connection> lent = servers.replicas.get(0).handedOut;
        synchronized (lent) {
            assertEquals(1, lent.size(), "one connection to r1");
            return lent.get(0);
        }
    }

    /** The labels in the primary's item table, read on a connection of its own. */
    private List<String> primaryItems() throws SQLException {
        List<String> labels = new java.util.ArrayList<>();
        try (Connection direct = servers.primary.getConnection(); Statement st = direct.createStatement();
             java.sql.ResultSet rs = st.executeQuery("select label from item order by id")) {
            while (rs.next()) {
                labels.add(rs.getString(1));
            }
        }
        return labels;
    }
}
