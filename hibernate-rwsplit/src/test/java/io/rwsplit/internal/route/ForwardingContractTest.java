package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every method of the JDK's {@code PreparedStatement}, {@code CallableStatement}, {@code ResultSet} and
 * {@code DatabaseMetaData} reaches the driver's object with the same arguments, every setter of a prepared
 * statement (and its {@code closeOnCompletion()}) is recorded (or, for a stream, stops the recording) and replays as
 * it was called, and nothing hands back a physical statement or connection. Checked by reflection over the
 * interfaces, so a method a new JDK adds fails here until it is forwarded.
 */
class ForwardingContractTest {

    private final Servers servers = new Servers(1, "round_robin");

    ForwardingContractTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    /** A driver object that records each call and answers with a default value. */
    private static final class Recorder {
        final List<String> calls = new ArrayList<>();
        final List<Object[]> arguments = new ArrayList<>();

        <T> T of(Class<T> type) {
            return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type},
                    (proxy, method, args) -> {
                        calls.add(signature(method));
                        arguments.add(args == null ? new Object[0] : args);
                        return answer(method.getReturnType());
                    }));
        }

        String last() {
            return calls.isEmpty() ? null : calls.get(calls.size() - 1);
        }
    }

    private static Object answer(Class<?> type) {
        if (type == ResultSet.class) {
            return new Recorder().of(ResultSet.class);
        }
        return defaultOf(type);
    }

    private static Object defaultOf(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class || type == short.class || type == byte.class) {
            return type == int.class ? 0 : type == short.class ? (Object) (short) 0 : (Object) (byte) 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == double.class) {
            return 0d;
        }
        return null;
    }

    /** Arguments that tell one call from another. */
    private static Object[] argumentsFor(Method m) {
        Class<?>[] types = m.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            args[i] = t == int.class ? 3 + i : t == long.class ? 7L + i : t == boolean.class ? Boolean.TRUE
                    : t == short.class ? (short) 5 : t == byte.class ? (byte) 6 : t == float.class ? 1.5f
                    : t == double.class ? 2.5d : t == String.class ? "arg" + i : t == Class.class ? String.class
                    : t == Map.class ? Map.of() : t == int[].class ? new int[] {1} : t == String[].class ? new String[] {"c"}
                    : t == byte[].class ? new byte[] {1} : t == Object.class ? "object" + i
                    : t == Object[].class ? new Object[] {"o"} : null;
        }
        return args;
    }

    private static String signature(Method m) {
        StringBuilder s = new StringBuilder(m.getName()).append('(');
        for (Class<?> p : m.getParameterTypes()) {
            s.append(p.getSimpleName()).append(',');
        }
        return s.append(')').toString();
    }

    private static List<Method> methodsOf(Class<?> type, Set<String> except) {
        List<Method> methods = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) && !except.contains(m.getName())) {
                methods.add(m);
            }
        }
        return methods;
    }

    private static Object invoke(Object target, Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static boolean takesStream(Method m) {
        for (Class<?> p : m.getParameterTypes()) {
            if (InputStream.class.isAssignableFrom(p) || Reader.class.isAssignableFrom(p)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyPreparedStatementMethodIsForwardedAndEverySetterRecordedOrStopsTheRecording() throws Throwable {
        Connection owner = servers.open();
        int setters = 0;
        for (Method m : methodsOf(PreparedStatement.class, Set.of("unwrap", "isWrapperFor", "getConnection"))) {
            Recorder driver = new Recorder();
            ForwardingPreparedStatement statement = new ForwardingPreparedStatement() { };
            statement.open(owner, driver.of(PreparedStatement.class), true);
            Object[] args = argumentsFor(m);
            Object result = invoke(statement, m, args);
            assertEquals(List.of(signature(m)), driver.calls, m + " reaches the driver's statement once");
            assertArrayEquals(args, driver.arguments.get(0), m + " passes its arguments on");
            if (m.getReturnType() == ResultSet.class) {
                ResultSet results = assertInstanceOf(RoutedResultSet.class, result, m + " wraps its result set");
                assertSame(statement, results.getStatement(), m + ": the result set hands back the routed statement");
            }
            if (m.getReturnType() == void.class
                    && (m.getName().startsWith("set") || m.getName().equals("closeOnCompletion"))) {
                setters++;
                assertTrue(statement.canReplay(), m + " is kept");
                Recorder replayed = new Recorder();
                statement.replay(replayed.of(PreparedStatement.class));
                assertEquals(List.of(signature(m)), replayed.calls, m + " replays as it was called");
                assertArrayEquals(args, replayed.arguments.get(0), m + " replays its arguments");
                statement.streamsRead();   // an execution
                assertEquals(!takesStream(m), statement.canReplay(),
                        m + (takesStream(m) ? ": a stream an execution read cannot be replayed" : ": replayed after it too"));
            }
            else {
                Recorder replayed = new Recorder();
                statement.replay(replayed.of(PreparedStatement.class));
                assertEquals(List.of(), replayed.calls, m + " is not a setter: nothing to replay");
            }
        }
        assertTrue(setters > 50, "the setters of PreparedStatement and Statement were checked: " + setters);
        owner.close();
    }

    @Test
    void everyMethodOfAPreparedStatementsHandleReachesItsBodyUntilClosedAndNoneAfter() throws Throwable {
        Connection owner = servers.open();
        Set<String> ofHandle = Set.of("unwrap", "isWrapperFor", "getConnection", "close", "isClosed");
        for (Method m : methodsOf(PreparedStatement.class, ofHandle)) {
            Recorder driver = new Recorder();
            ForwardingPreparedStatement body = new ForwardingPreparedStatement() { };
            body.open(owner, driver.of(PreparedStatement.class), true);
            PreparedStatement handle = body.handOut();
            Object[] args = argumentsFor(m);
            Object result = invoke(handle, m, args);
            assertEquals(List.of(signature(m)), driver.calls, m + " reaches the driver's statement once");
            assertArrayEquals(args, driver.arguments.get(0), m + " passes its arguments on");
            if (m.getReturnType() == ResultSet.class) {
                assertSame(handle, ((ResultSet) result).getStatement(), m + ": the result set hands back the handle");
            }
            assertSame(handle, handle.unwrap(PreparedStatement.class));
            assertSame(owner, handle.getConnection());

            handle.close();
            handle.close();
            assertEquals(List.of(signature(m), "close()"), driver.calls, "the body closes once, with its handle");
            assertTrue(handle.isClosed());
            assertSame(owner, handle.getConnection(), "a closed statement still names its connection");
            SQLException refused = assertThrows(SQLException.class, () -> invoke(handle, m, argumentsFor(m)),
                    m + " of a closed handle");
            assertEquals("HY010", refused.getSQLState(), m.toString());
            assertEquals(2, driver.calls.size(), m + " of a closed handle reaches nothing");
        }
        owner.close();
    }

    @Test
    void aLateCancelThroughAClosedHandleNeverReachesTheNextStatementOfItsBody() throws Throwable {
        try (Connection owner = servers.open()) {
            ForwardingPreparedStatement body = new ForwardingPreparedStatement() { };
            Recorder first = new Recorder();
            body.open(owner, first.of(PreparedStatement.class), true);
            PreparedStatement closed = body.handOut();
            closed.close();
            Recorder next = new Recorder();
            body.open(owner, next.of(PreparedStatement.class), true);   // the body serves the next statement
            PreparedStatement current = body.handOut();

            body.cancel(closed);   // another thread's cancel that reached the body before the handle closed
            assertEquals(List.of(), next.calls, "the next statement is not cancelled");
            current.cancel();
            assertEquals(List.of("cancel()"), next.calls);
            assertEquals("HY010", assertThrows(SQLException.class, closed::cancel).getSQLState());
        }
    }

    @Test
    void everyMethodOfAClosedStatementsHandleIsRefused() throws Throwable {
        try (Connection c = servers.open()) {
            int checked = 0;
            for (Method m : methodsOf(java.sql.Statement.class, Set.of("unwrap", "isWrapperFor", "getConnection", "close",
                    "isClosed"))) {
                java.sql.Statement handle = c.createStatement();
                assertInstanceOf(StatementHandle.class, handle);
                handle.close();
                SQLException refused = assertThrows(SQLException.class, () -> invoke(handle, m, argumentsFor(m)),
                        m + " of a closed statement");
                assertEquals("HY010", refused.getSQLState(), m.toString());
                checked++;
            }
            assertTrue(checked > 40, "the methods of Statement were checked: " + checked);
        }
    }

    @Test
    void everyMethodCallableStatementAddsIsForwardedAndItsSettersStopTheRecording() throws Throwable {
        Set<String> ofPrepared = new java.util.HashSet<>();
        for (Method m : PreparedStatement.class.getMethods()) {
            ofPrepared.add(signature(m));
        }
        try (Connection c = servers.open()) {
            int checked = 0;
            for (Method m : methodsOf(CallableStatement.class, Set.of())) {
                if (ofPrepared.contains(signature(m))) {
                    continue;
                }
                RoutedCallableStatement call = (RoutedCallableStatement) c.prepareCall("call 1");
                CallableStatement real = call.callable;
                Recorder driver = new Recorder();
                call.delegate = call.callable = driver.of(CallableStatement.class);
                call.recording = true;   // recording, as for an autocommit read
                Object[] args = argumentsFor(m);
                invoke(call, m, args);
                assertEquals(List.of(signature(m)), driver.calls, m + " reaches the driver's statement once");
                assertArrayEquals(args, driver.arguments.get(0), m + " passes its arguments on");
                if (m.getReturnType() == void.class) {
                    assertFalse(call.canReplay(), m + " (by name, or an OUT parameter) stops the recording");
                }
                real.close();
                checked++;
            }
            assertTrue(checked > 100, "the methods CallableStatement adds were checked: " + checked);
        }
    }

    @Test
    void everyResultSetMethodIsForwardedAndTheResultSetHandsBackTheRoutedStatement() throws Throwable {
        try (Connection c = servers.open(); PreparedStatement statement = c.prepareStatement("select 1")) {
            for (Method m : methodsOf(ResultSet.class, Set.of("unwrap", "isWrapperFor", "getStatement"))) {
                Recorder driver = new Recorder();
                RoutedResultSet results = new RoutedResultSet(statement, driver.of(ResultSet.class));
                Object[] args = argumentsFor(m);
                invoke(results, m, args);
                assertEquals(List.of(signature(m)), driver.calls, m + " reaches the driver's result set once");
                assertArrayEquals(args, driver.arguments.get(0), m + " passes its arguments on");
                assertSame(statement, results.getStatement());
            }
        }
    }

    @Test
    void everyMetaDataMethodIsForwardedAndItsResultSetsHandBackNoPhysicalStatement() throws Throwable {
        try (RoutingConnection c = servers.open()) {
            Connection primary = c.metaDataConnection();
            for (Method m : methodsOf(DatabaseMetaData.class, Set.of("unwrap", "isWrapperFor", "getConnection"))) {
                Recorder driver = new Recorder();
                RoutedMetaData meta = new RoutedMetaData(c, primary, driver.of(DatabaseMetaData.class));
                Object[] args = argumentsFor(m);
                Object result = invoke(meta, m, args);
                assertEquals(List.of(signature(m)), driver.calls, m + " reaches the driver's metadata once");
                assertArrayEquals(args, driver.arguments.get(0), m + " passes its arguments on");
                if (m.getReturnType() == ResultSet.class) {
                    assertNull(assertInstanceOf(RoutedResultSet.class, result, m + " wraps its result set").getStatement());
                }
                assertSame(c, meta.getConnection());
            }
        }
    }

    @Test
    void everyMetaDataMethodOfAClosedConnectionIsRefusedAndReachesNothing() throws Throwable {
        RoutingConnection c = servers.open();
        Recorder driver = new Recorder();
        RoutedMetaData meta = new RoutedMetaData(c, c.metaDataConnection(), driver.of(DatabaseMetaData.class));
        c.close();
        int checked = 0;
        for (Method m : methodsOf(DatabaseMetaData.class, Set.of("getConnection"))) {
            if (!List.of(m.getExceptionTypes()).contains(SQLException.class)) {
                continue;   // the driver's version: a constant of the driver, declared without SQLException
            }
            SQLException refused = assertThrows(SQLException.class, () -> invoke(meta, m, argumentsFor(m)),
                    m + " of a closed connection's metadata");
            assertEquals("08003", refused.getSQLState(), m.toString());
            checked++;
        }
        assertTrue(checked > 150, "the methods of DatabaseMetaData were checked: " + checked);
        assertEquals(List.of(), driver.calls, "nothing reached the driver's metadata");
        assertSame(c, meta.getConnection(), "the routing connection, also once it is closed");
    }

    @Test
    void aCursorOutParameterIsAResultSetOfTheCallableStatement() throws Throwable {
        try (Connection c = servers.open()) {
            RoutedCallableStatement call = (RoutedCallableStatement) c.prepareCall("call 1");
            CallableStatement real = call.callable;
            CallableStatement[] driverCall = new CallableStatement[1];
            // a REF_CURSOR OUT parameter, as pgjdbc hands out a refcursor: a result set of the driver's statement
            ResultSet cursor = (ResultSet) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ResultSet.class}, (proxy, method, args) -> method.getName().equals("getStatement")
                            ? driverCall[0] : defaultOf(method.getReturnType()));
            driverCall[0] = (CallableStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {CallableStatement.class}, (proxy, method, args) ->
                            method.getName().equals("getObject") ? cursor : defaultOf(method.getReturnType()));
            call.delegate = call.callable = driverCall[0];
            assertEveryGetObjectWrapsACursor(call, CallableStatement.class, call, c);
            assertInstanceOf(RoutedResultSet.class, call.getObject(1, Object.class), "a cursor asked as any object");
            real.close();
        }
    }

    /**
     * Calls each {@code getObject} overload of {@code iface} on {@code target}, whose driver object answers a cursor:
     * each hands out a {@link RoutedResultSet} whose statement is {@code statement}, and through it {@code c}.
     */
    private static void assertEveryGetObjectWrapsACursor(Object target, Class<?> iface, java.sql.Statement statement,
                                                          Connection c) throws Throwable {
        int checked = 0;
        for (Method m : methodsOf(iface, Set.of())) {
            if (!m.getName().equals("getObject")) {
                continue;
            }
            Class<?>[] types = m.getParameterTypes();
            Object[] args = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                args[i] = types[i] == int.class ? 1 : types[i] == String.class ? "cursor"
                        : types[i] == Class.class ? ResultSet.class : Map.of();
            }
            ResultSet cursor = assertInstanceOf(RoutedResultSet.class, invoke(target, m, args), m + " wraps a cursor");
            assertSame(statement, cursor.getStatement(), m + ": the cursor hands back the routed statement");
            assertSame(c, cursor.getStatement().getConnection(), m + ": and through it the routing connection");
            checked++;
        }
        assertEquals(6, checked, "getObject by index and by name, plain, with a type map and as a class");
    }

    @Test
    void aCursorColumnIsAResultSetOfTheRoutedStatement() throws Throwable {
        try (Connection c = servers.open(); PreparedStatement statement = c.prepareStatement("select 1")) {
            java.sql.Statement driverStatement = new Recorder().of(java.sql.Statement.class);
            // a refcursor column, as pgjdbc hands it out: a result set of the driver's statement
            ResultSet cursor = (ResultSet) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ResultSet.class}, (proxy, method, args) -> method.getName().equals("getStatement")
                            ? driverStatement : defaultOf(method.getReturnType()));
            ResultSet row = (ResultSet) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ResultSet.class}, (proxy, method, args) ->
                            method.getName().equals("getObject") ? cursor : defaultOf(method.getReturnType()));
            RoutedResultSet results = new RoutedResultSet(statement, row);
            assertEveryGetObjectWrapsACursor(results, ResultSet.class, statement, c);
            assertInstanceOf(RoutedResultSet.class, results.getObject(1, Object.class), "a cursor asked as any object");
            String text = "text";
            RoutedResultSet plain = new RoutedResultSet(statement, (ResultSet) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {ResultSet.class}, (proxy, method, args) ->
                            method.getName().equals("getObject") ? text : defaultOf(method.getReturnType())));
            assertSame(text, plain.getObject(1), "any other value as the driver gave it");
            assertSame(text, plain.getObject("label", String.class));
        }
    }

    @Test
    void resultSetsAndMetaDataOfEveryDoorLeadBackToTheRoutingConnection() throws SQLException {
        try (Connection c = servers.open()) {
            try (PreparedStatement onReplica = c.prepareStatement("select name from who where id = ?")) {
                onReplica.setInt(1, 1);
                try (ResultSet rs = onReplica.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("r1", rs.getString(1));
                    assertSame(onReplica, rs.getStatement());
                    assertSame(c, rs.getStatement().getConnection());
                }
            }
            try (PreparedStatement write = c.prepareStatement("insert into item (label) values ('x')",
                    java.sql.Statement.RETURN_GENERATED_KEYS)) {
                write.executeUpdate();
                try (ResultSet keys = write.getGeneratedKeys()) {
                    assertTrue(keys.next());
                    assertSame(c, keys.getStatement().getConnection());
                }
            }
            try (java.sql.Statement plain = c.createStatement()) {
                try (ResultSet rs = plain.executeQuery("select name from who")) {
                    assertSame(c, rs.getStatement().getConnection());
                }
                assertTrue(plain.execute("select name from who"));
                try (ResultSet rs = plain.getResultSet()) {
                    assertSame(plain, rs.getStatement());
                }
            }
            try (CallableStatement call = c.prepareCall("call 1"); ResultSet rs = call.executeQuery()) {
                assertSame(c, rs.getStatement().getConnection());
            }
            DatabaseMetaData meta = c.getMetaData();
            assertSame(c, meta.getConnection());
            try (ResultSet tables = meta.getTables(null, null, "WHO", null)) {
                assertTrue(tables.next());
                assertNull(tables.getStatement(), "a metadata result set hands back no physical statement");
            }
        }
    }
}
