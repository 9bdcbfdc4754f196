package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Transaction boundaries of one logical connection kept in manual-commit mode, as a pool or a framework
 * that commits without switching autocommit back on uses it: every commit or rollback begins the next
 * transaction afresh, whatever happened in the previous one.
 */
class TransactionBoundariesTest {

    private final Servers servers;

    TransactionBoundariesTest() throws SQLException {
        servers = new Servers(1, "round_robin");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    @Test
    void aReadOnlyTransactionThatFoundNoReplicaDoesNotPinTheNextOneAfterCommit() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            servers.down(0);
            assertEquals("primary", who(c), "no replica: the whole transaction reads from the primary");
            assertEquals("primary", who(c));
            c.commit();
            servers.up(0);
            assertEquals("r1", who(c), "the next transaction chooses again");
            c.commit();
        }
    }

    @Test
    void aReadOnlyTransactionThatFoundNoReplicaDoesNotPinTheNextOneAfterRollback() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            servers.down(0);
            assertEquals("primary", who(c));
            c.rollback();
            servers.up(0);
            assertEquals("r1", who(c));
            c.rollback();
        }
    }

    @Test
    void aFailedPrimaryCommitStillEndsTheReplicaTransactionAndBeginsAFreshOne() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            assertEquals("r1", who(c));
            c.commit();
            assertEquals(1, servers.replicas.get(0).commits.get());

            c.setReadOnly(false);
            try (var insert = c.prepareStatement("insert into item (label) values ('x')")) {
                insert.executeUpdate();
            }
            servers.primary.commitFails = true;
            SQLException e = assertThrows(SQLException.class, c::commit);
            assertTrue(e.getMessage().contains("commit failed"), e.getMessage());
            assertEquals(2, servers.replicas.get(0).commits.get(), "the replica's transaction ended too");
            servers.primary.commitFails = false;
            c.rollback();

            c.setReadOnly(true);
            assertEquals("r1", who(c), "the next transaction is read-only: the failed one's kind did not carry over");
            c.commit();
        }
    }

    @Test
    void aFailedReplicaCommitIsNotTheCallersFailureOnceThePrimaryCommitted() throws SQLException {
        try (Connection c = servers.open()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            assertEquals("r1", who(c));
            c.commit();
            c.setReadOnly(false);
            try (var insert = c.prepareStatement("insert into item (label) values ('y')")) {
                insert.executeUpdate();
            }
            servers.replicas.get(0).commitFails = true;
            c.commit();   // one server would have committed: a retry would write the row twice
            assertEquals("1", servers.primary.read("select count(*) from item"), "the primary committed");
            servers.replicas.get(0).commitFails = false;
            c.setReadOnly(true);
            assertEquals("r1", who(c), "the next read-only transaction opens another replica connection");
            c.commit();
        }
    }
}
