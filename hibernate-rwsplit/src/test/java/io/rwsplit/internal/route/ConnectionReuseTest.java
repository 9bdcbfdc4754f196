package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * A closed logical connection serves the next session of its router (its routing connection, tracker, gate and
 * holders are reused, not built again), and nothing of the session it served before carries over: after every kind of
 * per-connection state was set (a transaction that wrote, read-only, isolation, schema and catalog, holdability, a
 * replayed session command, a pin, a statement left for reuse, a busy pool, statistics), the next session's connection
 * is field by field what a new one is, and behaves as one.
 */
class ConnectionReuseTest {

    private final Servers servers = new Servers(1, "round_robin", Map.of());

    ConnectionReuseTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** Sets every kind of state a session can leave on its logical connection, then closes it. */
    private RoutingConnection usedAndClosed(SessionRouting session) throws SQLException {
        RoutingConnection c = servers.open(session);
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("insert into item (label) values ('written')");
            s.execute("SET SCHEMA other");   // a session command: replayed on replicas
        }
        c.commit();
        c.setAutoCommit(true);
        c.setReadOnly(true);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        c.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
        c.setNetworkTimeout(Runnable::run, 5_000);
        servers.pastEveryTimeWindow();   // the write is old enough for the replica (time mode: H2 has no positions)
        assertEquals("r1/other", who(c), "the read ran on the replica, under the session command");
        try (Statement s = c.createStatement()) {
            s.execute("SET @pinned = 1");   // a variable: the rest of the connection stays on the primary
        }
        c.setSchema("PUBLIC");
        c.close();
        assertTrue(c.isClosed());
        return c;
    }

    @Test
    void theNextSessionGetsTheClosedConnectionAndNothingOfItsLastSession() throws Exception {
        SessionRouting first = servers.session(Consistency.readYourWrites());
        RoutingConnection closed = usedAndClosed(first);
        assertEquals(1, servers.router.idleConnections(), "the closed connection waits for the next session");

        SessionRouting next = servers.session(Consistency.readYourWrites());
        RoutingConnection reused = servers.open(next);
        assertSame(closed, reused, "the next session reuses it");
        assertSame(next, reused.session());
        RoutingConnection fresh = new RoutingConnection(servers.router, next, false);
        sameState(fresh, reused, "RoutingConnection", new IdentityHashMap<>());

        assertFalse(reused.isClosed());
        assertTrue(reused.getAutoCommit());
        assertFalse(reused.isReadOnly());
        servers.pastEveryTimeWindow();
        assertEquals("r1", who(reused), "a read goes to the replica, without the last session's schema or pin");
        reused.close();
    }

    @Test
    void aConnectionClosedWhileHoldingAPhysicalConnectionIsNotReused() throws SQLException {
        RoutingConnection c = servers.open(servers.session(Consistency.readYourWrites()));
        assertEquals("r1", who(c));
        c.abort(Runnable::run);
        assertEquals(0, servers.router.idleConnections(), "an aborted connection is not reused");
        assertNotSame(c, servers.open(servers.session(Consistency.readYourWrites())));
    }

    @Test
    void aStatementLeftForReuseServesTheNextSessionAsANewOne() throws SQLException {
        RoutingConnection c = servers.open(servers.session(Consistency.readYourWrites()));
        PreparedStatement first;
        try (PreparedStatement ps = c.prepareStatement("select name from who where id = ?")) {
            first = ps;
            ps.setInt(1, 1);
            ps.setQueryTimeout(7);
            ps.executeQuery().close();
        }
        c.close();
        RoutingConnection next = servers.open(servers.session(Consistency.readYourWrites()));
        assertSame(c, next);
        try (PreparedStatement ps = next.prepareStatement("select name from other.who where id = ?")) {
            assertSame(first, ps, "the closed statement serves the next one");
            assertEquals(0, ps.getQueryTimeout(), "no option of the last one");
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("r1/other", rs.getString(1));
            }
        }
        next.close();
    }

    /** Whether {@code fresh} and {@code reused} hold the same state, field by field through the route package's objects. */
    private static void sameState(Object fresh, Object reused, String path, Map<Object, Object> seen)
            throws IllegalAccessException {
        if (fresh == null || reused == null) {
            if (fresh != reused) {
                fail(path + ": " + fresh + " new, " + reused + " reused");
            }
            return;
        }
        Object mapped = seen.get(reused);
        if (mapped != null) {
            assertSame(fresh, mapped, path + ": another object of the graph");
            return;
        }
        if (!fresh.getClass().getPackageName().equals(RoutingConnection.class.getPackageName())) {
            if (fresh instanceof java.util.BitSet bits) {
                assertEquals(bits.isEmpty(), ((java.util.BitSet) reused).isEmpty(), path);
                return;
            }
            assertSame(fresh, reused, path + ": a shared object (router, session, replica) or a value");
            return;
        }
        assertSame(fresh.getClass(), reused.getClass(), path);
        seen.put(reused, fresh);
        for (Class<?> type = fresh.getClass(); type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || field.getName().startsWith("spare")) {
                    continue;   // statements closed earlier, kept to serve the next ones (reset then)
                }
                field.setAccessible(true);
                Object a = field.get(fresh);
                Object b = field.get(reused);
                String at = path + "." + field.getName();
                if (field.getType().isPrimitive()) {
                    assertEquals(a, b, at);
                }
                else if (field.getType() == java.util.BitSet.class) {
                    assertTrue((a == null || ((java.util.BitSet) a).isEmpty()) && (b == null || ((java.util.BitSet) b).isEmpty()),
                            at + ": no busy pool");
                }
                else if (a instanceof String || b instanceof String || a instanceof Enum<?> || b instanceof Enum<?>
                        || a instanceof Number || b instanceof Number) {
                    assertEquals(a, b, at);
                }
                else if (a != null && a.getClass().isSynthetic() || b != null && b.getClass().isSynthetic()) {
                    assertEquals(a == null, b == null, at);   // a lambda of the object itself
                }
                else {
                    sameState(a, b, at, seen);
                }
            }
        }
    }

    @Test
    void theSessionOfAnIdleConnectionIsNotReachableFromIt() throws SQLException {
        RoutingConnection c = usedAndClosed(servers.session(Consistency.readYourWrites()));
        assertNull(c.session(), "an idle connection keeps no session alive");
    }
}
