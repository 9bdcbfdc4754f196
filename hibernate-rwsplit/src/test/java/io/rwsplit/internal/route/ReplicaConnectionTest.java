package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.health.ReplicaState;

/**
 * The replica connection of one logical connection, on its own: which replica it opens, how often it asks a busy
 * pool, what it does with a replica that cannot take the connection's settings, and what it gives back.
 */
class ReplicaConnectionTest {

    private final Servers servers = new Servers(2, "round_robin");
    private final SessionRouting session = new SessionRouting();
    private final ConsistencyGate gate = new ConsistencyGate(servers.router, new Served(null, session));
    private final TransactionTracker tx = new TransactionTracker(new Served(null, session), servers.router.transactionStatus(), false, gate);
    private final ConnectionSettings settings = new ConnectionSettings();
    private final PhysicalConnections physical =
            new PhysicalConnections(servers.router, tx, settings, new ConnectionSession(servers.router));
    private final ReplicaConnection replica = physical.replica();

    ReplicaConnectionTest() throws SQLException {
        gate.connections(physical);
    }

    @AfterEach
    void close() throws SQLException {
        physical.releaseAll();
        servers.close();
    }

    private static SQLException busy(String pool) {
        return new SQLTransientConnectionException(pool + " - Connection is not available, request timed out after"
                + " 250ms (total=1, active=1, idle=0, waiting=1)");
    }

    @Test
    void aReadOpensOneReplicaConnectionAndTheNextReadsReuseIt() throws SQLException {
        Connection first = replica.serve(false);
        assertNotNull(first);
        assertEquals("r1", replica.node().name(), "round robin starts with r1");
        assertSame(first, replica.serve(false));
        assertSame(first, replica.connection());
        assertEquals("r1", Servers.who(first));
        assertEquals(1, servers.replicas.get(0).handedOut.size());
        assertEquals(0, servers.replicas.get(1).handedOut.size());
    }

    @Test
    void aBusyPoolIsAskedOncePerStatementAndAgainForTheNextStatement() throws SQLException {
        servers.replicas.get(0).lendFails = () -> busy("r1");
        assertNotNull(replica.serve(false));
        assertEquals("r2", replica.node().name());
        assertNotNull(replica.poolTimeout(), "the statement knows a pool was busy");
        assertEquals(1, servers.replicas.get(0).refusedLends.get());

        replica.release();
        assertNotNull(replica.serve(false), "the same statement, served again");
        assertEquals("r2", replica.node().name());
        assertEquals(1, servers.replicas.get(0).refusedLends.get(), "r1's pool is not asked again for this statement");

        for (int statement = 0; statement < 2; statement++) {   // round robin offers r1 to one of the two
            replica.release();
            replica.statementStarting();
            assertNull(replica.poolTimeout(), "a new statement starts with no busy pool");
            assertNotNull(replica.serve(false));
            assertEquals("r2", replica.node().name());
        }
        assertEquals(2, servers.replicas.get(0).refusedLends.get(), "r1's pool is asked again by a later statement");
        assertEquals(ReplicaState.UP, servers.set.health().replicas().get(0).state(), "a busy pool is no failure");
    }

    @Test
    void aReplicaThatCannotTakeTheConnectionsSettingsIsMarkedDownAndTheNextOneServes() throws SQLException {
        servers.replicas.get(1).execute("create schema only_r2");
        settings.schema("ONLY_R2", physical);   // nothing open yet: applied to the connections opened later
        Connection c = replica.serve(false);
        assertNotNull(c);
        assertEquals("r2", replica.node().name());
        assertEquals("ONLY_R2", c.getSchema());
        assertFalse(servers.set.isUp(servers.nodes.get(0)), "r1 refused the schema");
        assertTrue(servers.replicas.get(0).handedOut.get(0).isClosed(), "r1's connection went back to its pool");
    }

    @Test
    void aTransactionThatFoundNoReplicaStaysOnThePrimaryUntilItEnds() throws SQLException {
        servers.down(0);
        servers.down(1);
        assertNull(replica.serve(true));
        assertTrue(tx.replicaUnavailable());
        servers.up(0);
        replica.statementStarting();   // the transaction's next statement
        assertNull(replica.serve(true), "one consistent snapshot: the rest of the transaction stays on the primary");
        replica.statementStarting();   // a statement outside the transaction
        assertNotNull(replica.serve(false), "outside the transaction a replica that came back serves");
    }

    @Test
    void droppingAReplicaOtherThanTheOpenOneLeavesTheConnectionOpen() throws SQLException {
        Connection c = replica.serve(false);
        replica.drop(servers.nodes.get(1));
        assertSame(c, replica.connection());
        replica.drop(servers.nodes.get(0));
        assertNull(replica.connection());
        assertNull(replica.node());
        assertTrue(servers.replicas.get(0).handedOut.get(0).isClosed(), "the broken connection went back to its pool");
    }

    @Test
    void aPinnedConnectionOpensNoReplica() throws SQLException {
        ConnectionSession pinned = new ConnectionSession(servers.router);
        pinned.pin();
        ReplicaConnection onPinned = new ReplicaConnection(servers.router, tx, settings, pinned);
        assertNull(onPinned.serve(false));
        assertNull(onPinned.open(servers.nodes.get(0)));
        assertEquals(0, servers.replicas.get(0).handedOut.size() + servers.replicas.get(1).handedOut.size());
    }
}
