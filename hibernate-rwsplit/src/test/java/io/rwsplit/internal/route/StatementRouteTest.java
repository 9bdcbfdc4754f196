package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.Target;
import io.rwsplit.internal.replica.ReplicaNode;

/** The decision value a routed statement carries: shared constants, one per decision and combination of flags. */
class StatementRouteTest {

    private final Servers servers;

    StatementRouteTest() throws SQLException {
        servers = new Servers(2, "round_robin");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    @Test
    void theSameDecisionWithTheSameFlagsIsTheSameInstance() {
        ReplicaNode r1 = servers.nodes.get(0);
        StatementRoute read = servers.router.replicaRoute(r1, RouteReason.REPLICA_READ).with(true, true, true);
        assertSame(read, servers.router.replicaRoute(r1, RouteReason.REPLICA_READ).with(true, true, true), "routing allocates nothing");
        assertSame(read, read.with(true, true, true));
        assertSame(servers.router.replicaRoute(r1, RouteReason.REPLICA_READ), read.with(false, false, false), "one family per decision");
        assertSame(servers.router.primaryRoute(RouteReason.WRITE), servers.router.primaryRoute(RouteReason.WRITE));
    }

    @Test
    void eachFlagIsKeptApart() {
        StatementRoute base = servers.router.primaryRoute(RouteReason.NO_HEALTHY_REPLICA);
        for (int f = 0; f < 8; f++) {
            boolean autocommitRead = (f & 1) != 0;
            boolean gated = (f & 2) != 0;
            boolean anyReplica = (f & 4) != 0;
            StatementRoute route = base.with(autocommitRead, gated, anyReplica);
            assertEquals(autocommitRead, route.autocommitRead(), route.toString());
            assertEquals(gated, route.gated(), route.toString());
            assertEquals(anyReplica, route.anyReplica(), route.toString());
            assertSame(base.decision(), route.decision(), "the same recorded decision whatever the flags");
        }
    }

    @Test
    void aReplicaRouteNamesItsNodeAndAPrimaryRouteNone() {
        ReplicaNode r2 = servers.nodes.get(1);
        StatementRoute onReplica = servers.router.replicaRoute(r2, RouteReason.RETRY_REPLICA);
        assertSame(r2, onReplica.node());
        assertEquals(1, onReplica.replicaIndex());
        assertEquals(Target.REPLICA, onReplica.decision().target());
        assertEquals("r2", onReplica.decision().replica());
        StatementRoute onPrimary = servers.router.primaryRoute(RouteReason.RETRY_PRIMARY);
        assertNull(onPrimary.node());
        assertEquals(-1, onPrimary.replicaIndex());
        assertTrue(onPrimary.decision().isPrimary());
        assertFalse(onPrimary.autocommitRead());
    }
}
