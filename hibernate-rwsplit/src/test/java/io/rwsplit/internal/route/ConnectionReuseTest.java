package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * The parts of a closed logical connection (its routing, tracker, gate and holders) serve the next session of its
 * router through a new facade, and nothing of the session they served before carries over: after every kind of
 * per-connection state was set (a transaction that wrote, read-only, isolation, schema, holdability, network timeout,
 * a replayed session command, a pin), the next session's connection is field by field what a new one is, and behaves
 * as one; the closed facade stays closed, so that a second close or an abort never reaches the next session.
 */
class ConnectionReuseTest {

    private final Servers servers = new Servers(1, "round_robin", Map.of());

    ConnectionReuseTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** The parts of the connection {@link #usedAndClosed} closed last (a closed facade lets go of its parts). */
    private ConnectionRouting partsOfClosed;

    /** Sets every kind of state a session can leave on its logical connection, then closes it. */
    private RoutingConnection usedAndClosed(SessionRouting session) throws Exception {
        RoutingConnection c = servers.open(session);
        partsOfClosed = parts(c);
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("insert into item (label) values ('written')");
            try (java.sql.PreparedStatement write = c.prepareStatement("insert into item (label) values (?)")) {
                write.setString(1, "prepared");   // a statement on the primary: its body waits for the next one
                write.executeUpdate();
            }
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
        try (java.sql.PreparedStatement read = c.prepareStatement("select name from who where id = ?")) {
            read.setInt(1, 1);   // a kept parameter: the body that waits for the next statement keeps none of it
            read.setFetchSize(10);
            read.executeQuery().close();
        }
        try (Statement s = c.createStatement()) {
            s.execute("SET @pinned = 1");   // a variable: the rest of the connection stays on the primary
        }
        c.setSchema("PUBLIC");
        c.close();
        assertTrue(c.isClosed());
        assertNull(parts(c), "a closed facade lets go of its parts: nothing of it reaches the session they serve next");
        assertNull(c.session());
        return c;
    }

    /** The parts (routing, tracker, gate, holders) behind a facade. */
    private static ConnectionRouting parts(RoutingConnection c) throws ReflectiveOperationException {
        Field routing = RoutingConnection.class.getDeclaredField("routing");
        routing.setAccessible(true);
        return (ConnectionRouting) routing.get(c);
    }

    @Test
    void theNextSessionGetsTheClosedConnectionsPartsAndNothingOfItsLastSession() throws Exception {
        SessionRouting first = servers.session(Consistency.readYourWrites());
        RoutingConnection closed = usedAndClosed(first);
        assertEquals(1, servers.router.idleConnections(), "the closed connection's parts wait for the next session");

        SessionRouting next = servers.session(Consistency.readYourWrites());
        RoutingConnection reused = servers.open(next);
        assertNotSame(closed, reused, "each session gets a facade of its own");
        assertSame(partsOfClosed, parts(reused), "over the same parts");
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
    void aClosedConnectionStaysClosedWhileItsPartsServeTheNextSession() throws Exception {
        RoutingConnection closed = servers.open(servers.session(Consistency.readYourWrites()));
        assertEquals("r1", who(closed));
        ConnectionRouting itsParts = parts(closed);
        closed.close();
        RoutingConnection next = servers.open(servers.session(Consistency.readYourWrites()));
        assertSame(itsParts, parts(next));
        next.setAutoCommit(false);
        try (Statement s = next.createStatement()) {
            s.executeUpdate("insert into item (label) values ('next session')");
        }

        closed.close();                 // a second close, as JDBC allows
        closed.abort(Runnable::run);    // and an abort: both no-ops on a closed connection
        assertTrue(closed.isClosed());
        assertEquals("08003", assertThrows(SQLException.class, () -> closed.prepareStatement("select 1")).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class, closed::commit).getSQLState());
        assertEquals(0, servers.router.idleConnections(), "the parts serving the next session stay with it");
        assertEquals(0, servers.primary.aborted.size(), "nothing of the next session was aborted");

        next.commit();                  // its transaction is intact
        try (Statement s = next.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from item where label = 'next session'")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
        }
        next.close();
    }

    @Test
    void aStatementOfAClosedConnectionRefusesToRunOnThePartsOfTheNextSession() throws Exception {
        RoutingConnection closed = servers.open(servers.session(Consistency.readYourWrites()));
        java.sql.PreparedStatement prepared = closed.prepareStatement("select name from who where id = ?");
        Statement created = closed.createStatement();
        ConnectionRouting itsParts = parts(closed);
        closed.close();   // the application left both open
        RoutingConnection next = servers.open(servers.session(Consistency.readYourWrites()));
        assertSame(itsParts, parts(next));
        assertEquals("08003", assertThrows(SQLException.class, prepared::executeQuery).getSQLState());
        assertEquals("08003", assertThrows(SQLException.class,
                () -> created.executeUpdate("insert into item (label) values ('stale')")).getSQLState());
        assertSame(closed, created.getConnection(), "a statement names the connection that made it");
        try (Connection primary = servers.primary.getConnection(); Statement s = primary.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from item where label = 'stale'")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "the stale statement wrote nothing");
        }
        next.close();
    }

    @Test
    void anAbortedConnectionsPartsAreNotReused() throws Exception {
        RoutingConnection c = servers.open(servers.session(Consistency.readYourWrites()));
        assertEquals("r1", who(c));
        ConnectionRouting itsParts = parts(c);
        c.abort(Runnable::run);
        assertEquals(0, servers.router.idleConnections(), "an aborted connection is not reused");
        assertNotSame(itsParts, parts(servers.open(servers.session(Consistency.readYourWrites()))));
    }

    @Test
    void idlePartsKeepNoSessionReachable() throws Exception {
        RoutingConnection c = usedAndClosed(servers.session(Consistency.readYourWrites()));
        Field served = ConnectionRouting.class.getDeclaredField("served");
        served.setAccessible(true);
        Served whom = (Served) served.get(partsOfClosed);
        assertNull(whom.session, "idle parts keep no session");
        assertNull(whom.owner, "idle parts keep no facade");
    }

    /** Whether {@code fresh} and {@code reused} hold the same state, field by field through the route package's objects. */
    /**
     * What an idle statement body keeps of its last statement, by name: shared, long-lived values (a route constant, a
     * replica, the classification cache's SQL text and shape, an overload), written again only when they change, and
     * the checked read's execution, which keeps nothing of its own. Nothing else may differ from a new body.
     */
    private static final java.util.Set<String> KEPT_BY_IDLE_BODIES = java.util.Set.of(
            "RoutedPreparedStatement.route", "RoutedPreparedStatement.node", "RoutedPreparedStatement.sql",
            "RoutedPreparedStatement.shape", "RoutedPreparedStatement.checkedRead", "ReplicaStatement.shape",
            "PrimaryStatement.shape", "RoutedStatement.overload");

    /** Whether {@code array} is null or holds only zeros, false and nulls. */
    private static boolean empty(Object array) {
        if (array == null) {
            return true;
        }
        for (int i = 0; i < java.lang.reflect.Array.getLength(array); i++) {
            Object e = java.lang.reflect.Array.get(array, i);
            if (e != null && !e.equals(0) && !e.equals(0L) && !e.equals(false)) {
                return false;
            }
        }
        return true;
    }

    private static void sameState(Object fresh, Object reused, String path, Map<Object, Object> seen)
            throws ReflectiveOperationException {
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
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
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
                else if (a == null
                        && KEPT_BY_IDLE_BODIES.contains(field.getDeclaringClass().getSimpleName() + "." + field.getName())) {
                    // a shared, long-lived value an idle statement body keeps (written again only when it changes)
                    assertTrue(path.contains(".idle"), at + ": only an idle statement body keeps a shared value");
                }
                else if (a instanceof String || b instanceof String || a instanceof Enum<?> || b instanceof Enum<?>
                        || a instanceof Number || b instanceof Number) {
                    assertEquals(a, b, at);
                }
                else if (a != null && a.getClass().isSynthetic() || b != null && b.getClass().isSynthetic()) {
                    assertEquals(a == null, b == null, at);   // a lambda of the object itself
                }
                else if (a == null && b != null && field.getName().startsWith("idle")) {
                    // a closed statement's body waiting for the next statement: what a new body of the parts is
                    // of the routing the doors (fresh) route through
                    Field routing = StatementDoors.class.getDeclaredField("routing");
                    routing.setAccessible(true);
                    Object body = b.getClass().getDeclaredConstructor(ConnectionRouting.class)
                            .newInstance(routing.get(fresh));
                    sameState(body, b, at, seen);
                }

                else if (field.getType().isArray() && (a == null || b == null)) {
                    assertTrue(empty(a) && empty(b), at + ": a new statement's arrays are made at its first call kept,"
                            + " a reused one's are emptied");
                }
                else if (a instanceof java.util.Collection<?> x && b instanceof java.util.Collection<?> y) {
                    assertEquals(x.isEmpty(), y.isEmpty(), at);
                }
                else {
                    sameState(a, b, at, seen);
                }
            }
        }
    }

}
