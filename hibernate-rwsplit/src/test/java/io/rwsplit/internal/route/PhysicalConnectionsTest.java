package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;

/**
 * The primary/replica pair behind one logical connection, on its own: the primary opened once with the transaction's
 * autocommit, routes resolved to their connection, an action applied to both whatever the first did, and both given
 * back whatever giving back one of them did.
 */
class PhysicalConnectionsTest {

    private final Servers servers = new Servers(2, "round_robin");
    private final SessionRouting session = new SessionRouting();
    private final ConsistencyGate gate = new ConsistencyGate(servers.router, new Served(null, session));
    private final TransactionTracker tx = new TransactionTracker(new Served(null, session), servers.router.transactionStatus(), false, gate);
    private final PhysicalConnections physical =
            new PhysicalConnections(servers.router, tx, new ConnectionSettings(), new ConnectionSession(servers.router));

    PhysicalConnectionsTest() throws SQLException {
        gate.connections(physical);
    }

    @AfterEach
    void close() throws SQLException {
        physical.releaseAll();
        servers.close();
    }

    @Test
    void thePrimaryIsOpenedOnceWithTheTransactionsAutocommit() throws SQLException {
        assertNull(physical.openPrimary(), "nothing is opened before it is needed");
        tx.autoCommitSwitchingOff();
        tx.autoCommitSwitched(false);
        Connection primary = physical.primary();
        assertFalse(primary.getAutoCommit(), "opened inside the transaction");
        assertSame(primary, physical.primary());
        assertSame(primary, physical.openPrimary());
        assertEquals(1, servers.primary.handedOut.size());
    }

    @Test
    void aRouteResolvesToItsConnectionAndARouteToAReplicaThatIsNotOpenIsAnError() throws SQLException {
        StatementRoute toPrimary = servers.router.primaryRoute(RouteReason.WRITE);
        assertEquals("primary", Servers.who(physical.connection(toPrimary)));

        StatementRoute toR2 = servers.router.replicaRoute(servers.nodes.get(1), RouteReason.REPLICA_READ);
        assertThrows(IllegalStateException.class, () -> physical.connection(toR2), "no replica connection is open");
        physical.replica().open(servers.nodes.get(1));
        assertEquals("r2", Servers.who(physical.connection(toR2)));

        StatementRoute toR1 = servers.router.replicaRoute(servers.nodes.get(0), RouteReason.REPLICA_READ);
        assertThrows(IllegalStateException.class, () -> physical.connection(toR1), "the open one is r2");
    }

    @Test
    void aBoundaryIsAttemptedOnTheReplicaWhenThePrimaryFailsAndOnlyThePrimarysFailureIsReturned() throws SQLException {
        Connection primary = physical.primary();
        Connection replica = physical.replica().serve(false);
        List<Connection> reached = new ArrayList<>();
        SQLException failure = physical.endOnBoth(c -> {
            reached.add(c);
            throw new SQLException("simulated: " + (c == primary ? "primary" : "replica"));
        }, "commit");
        assertEquals(List.of(primary, replica), reached, "the primary first, then the replica");
        assertNotNull(failure);
        assertEquals("simulated: primary", failure.getMessage());
        assertNull(failure.getNextException(), "the replica held only reads: its failure is not the caller's");
        assertNull(physical.replica().connection(), "the replica connection that failed is discarded");
        assertNull(physical.endOnBoth(c -> { }, "commit"), "no failure, nothing returned");
    }

    @Test
    void aReplicaThatFailsAtABoundaryIsDiscardedAndTheNextReadOpensAnother() throws SQLException {
        physical.primary();
        Connection first = physical.replica().serve(false);
        assertNull(physical.endOnBoth(c -> {
            if (c == first) {
                throw new SQLException("simulated: the replica died", "08006");
            }
        }, "commit"));
        assertNull(physical.replica().connection());
        Connection second = physical.replica().serve(false);
        assertNotNull(second);
        assertFalse(second == first, "a new connection");
    }

    @Test
    void thePrimaryGoesBackEvenWhenGivingBackTheReplicaFails() throws SQLException {
        Connection primary = physical.primary();
        physical.replica().serve(false);
        servers.replicas.get(0).closeThrows = true;
        assertThrows(IllegalStateException.class, physical::releaseAll);
        assertTrue(primary.isClosed(), "the primary connection went back to its pool");
        assertNull(physical.openPrimary());
        assertNull(physical.replica().connection());
        assertNull(physical.releaseAll(), "nothing is given back twice");
    }

    @Test
    void aBrokenPrimaryIsDroppedAndTheNextStatementOpensAnother() throws SQLException {
        Connection first = physical.primary();
        physical.dropPrimary();
        assertTrue(first.isClosed());
        Connection second = physical.primary();
        assertFalse(second.isClosed());
        assertEquals(2, servers.primary.handedOut.size());
    }

    @Test
    void thePairIsValidOnlyWhileBothOpenConnectionsAre() throws SQLException {
        assertTrue(physical.isValid(1), "nothing open: nothing invalid");
        physical.primary();
        Connection replica = physical.replica().serve(false);
        assertTrue(physical.isValid(1));
        replica.close();   // as a pool closes a connection it found broken
        assertFalse(physical.isValid(1));
        assertTrue(physical.toString().contains("replica=r1"), physical.toString());
    }
}
