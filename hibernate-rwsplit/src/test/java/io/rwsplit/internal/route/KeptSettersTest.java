package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLType;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * How {@link ForwardingPreparedStatement} keeps its setter calls without allocating: each setter replays exactly the
 * values it was given (the edges of every primitive encoding included), its arrays are made small and only when needed
 * (the options' and the second arguments' apart), and a statement that stops recording keeps nothing reachable.
 * {@code ForwardingContractTest} checks that every method forwards and every setter replays with ordinary values.
 */
class KeptSettersTest {

    /** A driver object that records each call and answers with a default value. */
    private static final class Driver {
        final List<Method> methods = new ArrayList<>();
        final List<Object[]> arguments = new ArrayList<>();

        <T> T of(Class<T> type) {
            return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type},
                    (proxy, method, args) -> {
                        methods.add(method);
                        arguments.add(args == null ? new Object[0] : args);
                        return answer(method.getReturnType());
                    }));
        }

        private static Object answer(Class<?> type) {
            if (type == boolean.class) {
                return false;
            }
            if (type == int.class) {
                return 0;
            }
            return type == long.class ? (Object) 0L : null;
        }

        List<String> calls() {
            List<String> calls = new ArrayList<>();
            for (int i = 0; i < methods.size(); i++) {
                calls.add(methods.get(i).getName() + java.util.Arrays.toString(arguments.get(i)));
            }
            return calls;
        }
    }

    private static ForwardingPreparedStatement statement(PreparedStatement delegate) {
        ForwardingPreparedStatement statement = new ForwardingPreparedStatement() { };
        statement.open(null, delegate, true);
        return statement;
    }

    private static List<Method> setters() {
        List<Method> setters = new ArrayList<>();
        for (Method m : PreparedStatement.class.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) && m.getName().startsWith("set") && m.getReturnType() == void.class) {
                setters.add(m);
            }
        }
        return setters;
    }

    private static boolean isParameterSetter(Method m) {
        return m.getDeclaringClass() == PreparedStatement.class && m.getParameterCount() >= 2
                && m.getParameterTypes()[0] == int.class;
    }

    /**
     * Arguments at the edges of their encoding ({@code high}: the largest values, NaN with a payload; else the smallest,
     * -0.0 and false), told apart by position so that two arguments of one type cannot swap unnoticed.
     */
    private static Object[] edgeArguments(Method m, boolean high) throws Exception {
        Class<?>[] types = m.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            if (i == 0 && isParameterSetter(m)) {
                args[i] = 3;   // the parameter index
            }
            else if (t == int.class) {
                args[i] = high ? Integer.MAX_VALUE - i : Integer.MIN_VALUE + i;
            }
            else if (t == long.class) {
                args[i] = high ? Long.MAX_VALUE - i : Long.MIN_VALUE + i;
            }
            else if (t == short.class) {
                args[i] = (short) (high ? Short.MAX_VALUE - i : Short.MIN_VALUE + i);
            }
            else if (t == byte.class) {
                args[i] = (byte) (high ? Byte.MAX_VALUE - i : Byte.MIN_VALUE + i);
            }
            else if (t == boolean.class) {
                args[i] = high;
            }
            else if (t == double.class) {
                args[i] = high ? Double.longBitsToDouble(0xfff8_0000_dead_beefL) : -0.0d;
            }
            else if (t == float.class) {
                args[i] = high ? Float.intBitsToFloat(0xffc0_beef) : -0.0f;
            }
            else {
                args[i] = objectOf(t);
            }
        }
        return args;
    }

    private static Object objectOf(Class<?> t) throws Exception {
        if (t == String.class) {
            return new String("value");
        }
        if (t == byte[].class) {
            return new byte[] {-1, 0, 1};
        }
        if (t == Object.class) {
            return new Object();
        }
        if (t == BigDecimal.class) {
            return new BigDecimal("-1.50");
        }
        if (t == java.sql.Date.class) {
            return new java.sql.Date(-1);
        }
        if (t == java.sql.Time.class) {
            return new java.sql.Time(-1);
        }
        if (t == java.sql.Timestamp.class) {
            return new java.sql.Timestamp(-1);
        }
        if (t == Calendar.class) {
            return Calendar.getInstance();
        }
        if (t == URL.class) {
            return new URL("http://replica.example/");
        }
        if (t == InputStream.class) {
            return new ByteArrayInputStream(new byte[] {1});
        }
        if (t == Reader.class) {
            return new StringReader("r");
        }
        if (t == SQLType.class) {
            return JDBCType.NVARCHAR;
        }
        if (t.isInterface()) {
            return new Driver().of(t);   // Array, Blob, Clob, NClob, Ref, RowId, SQLXML
        }
        return fail("no test value for " + t);
    }

    private static void invoke(Object target, Method m, Object[] args) throws Throwable {
        try {
            m.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Every bit of a double or float (NaN payload, the sign of zero), the same object for any other argument. */
    private static void assertSameArgument(Object expected, Object actual, String message) {
        if (expected instanceof Double d) {
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits((Double) actual), message);
        }
        else if (expected instanceof Float f) {
            assertEquals(Float.floatToRawIntBits(f), Float.floatToRawIntBits((Float) actual), message);
        }
        else if (expected instanceof Number || expected instanceof Boolean) {
            assertEquals(expected, actual, message);
        }
        else {
            assertSame(expected, actual, message);
        }
    }

    @Test
    void everySetterReplaysTheExactValuesItWasGiven() throws Throwable {
        int checked = 0;
        for (Method m : setters()) {
            for (boolean high : new boolean[] {false, true}) {
                ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
                Object[] args = edgeArguments(m, high);
                invoke(statement, m, args);
                Driver replayed = new Driver();
                statement.replay(replayed.of(PreparedStatement.class));
                assertEquals(List.of(m), replayed.methods, m + " replays as it was called");
                Object[] again = replayed.arguments.get(0);
                for (int i = 0; i < args.length; i++) {
                    assertSameArgument(args[i], again[i], m + ", argument " + i + (high ? " (high)" : " (low)"));
                }
                checked++;
            }
        }
        assertTrue(checked > 100, "the setters of PreparedStatement and Statement were checked: " + checked);
    }

    @Test
    void replaySetsTheOptionsFirstThenTheLastValueOfEachParameterByIndex() throws SQLException {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setString(20, "far");   // past the first slots: they grow
        statement.setLong(2, 1L);
        statement.setFetchSize(10);
        statement.setLong(2, 2L);   // replaces the first
        statement.setQueryTimeout(5);
        statement.setFetchSize(50);
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("setFetchSize[50]", "setQueryTimeout[5]", "setLong[2, 2]", "setString[20, far]"),
                replayed.calls());

        statement.parametersCleared();   // what RoutedPreparedStatement.clearParameters() tells it
        Driver cleared = new Driver();
        statement.replay(cleared.of(PreparedStatement.class));
        assertEquals(List.of("setFetchSize[50]", "setQueryTimeout[5]"), cleared.calls(), "the options stay");
    }

    @Test
    void setMaxRowsAndSetLargeMaxRowsSetOneLimitAndOnlyTheLaterCallIsReplayed() throws SQLException {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setMaxRows(10);
        statement.setLargeMaxRows(5);   // the limit now: both replayed, setMaxRows(10) would win
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("setLargeMaxRows[5]"), replayed.calls());

        statement.setMaxRows(20);
        Driver again = new Driver();
        statement.replay(again.of(PreparedStatement.class));
        assertEquals(List.of("setMaxRows[20]"), again.calls());
    }

    @Test
    void theFetchSizeIsReplayedBeforeTheMaxRowsWhateverTheOrderTheyWereSetIn() throws SQLException {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setMaxRows(100);
        statement.setFetchSize(50);
        statement.setMaxRows(10);   // H2 and Derby refuse a fetch size above the max rows when it is set
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("setFetchSize[50]", "setMaxRows[10]"), replayed.calls(),
                "a statement prepared again has no max rows yet when its fetch size is set");
    }

    @Test
    void closeOnCompletionIsKeptAndReplayed() throws SQLException {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setInt(1, 1);
        statement.closeOnCompletion();
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("closeOnCompletion[]", "setInt[1, 1]"), replayed.calls());
    }

    @Test
    void anIndexJdbcDoesNotDefineStopsTheRecording() throws SQLException {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setInt(1, 1);
        statement.setInt(0, 1);
        assertFalse(statement.canReplay());
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of(), replayed.calls(), "nothing kept");
    }

    @Test
    void aStreamSetBeforeTheRecordingStoppedDoesNotBreakTheNextExecution() throws SQLException {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setBinaryStream(1, new ByteArrayInputStream(new byte[] {1}));
        statement.unreplayable();   // a setter by name, a batch
        assertTrue(statement.mayHaveUnreadStream(), "the driver statement still holds the stream");
        assertDoesNotThrow(statement::streamsRead);
        assertFalse(statement.canReplay());
    }


    @Test
    void aNewStatementMakesOnlySmallParameterArraysAtItsFirstParameter() throws Exception {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        assertEquals(List.of(), nonNullArrays(statement), "nothing before the first call kept");

        statement.setLong(1, 7L);
        statement.setString(3, "three");
        List<Object> made = nonNullArrays(statement);
        assertEquals(3, made.size(), "one int, one long and one Object per slot, no option or second arrays: " + made);
        for (Object array : made) {
            assertEquals(4, java.lang.reflect.Array.getLength(array), "room for 4 parameters at first");
        }

        statement.setInt(5, 5);
        for (Object array : nonNullArrays(statement)) {
            assertEquals(8, java.lang.reflect.Array.getLength(array), "then twice as many");
        }
    }

    @Test
    void theSecondArgumentsGrowWithTheSlotsAndGoWithTheirCall() throws Exception {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setInt(1, 1);
        java.sql.Timestamp at = new java.sql.Timestamp(1);
        Calendar calendar = Calendar.getInstance();
        statement.setTimestamp(2, at, calendar);   // a second object: the second arrays are made
        statement.setTimestamp(9, at, calendar);   // past the first slots: all grow together
        statement.setObject(10, "x", java.sql.Types.NUMERIC, 2);   // a second primitive
        int length = java.lang.reflect.Array.getLength(nonNullArrays(statement).get(0));
        for (Object array : nonNullArrays(statement)) {
            assertEquals(length, java.lang.reflect.Array.getLength(array), "every parameter array grows with the others");
        }
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("setInt[1, 1]", "setTimestamp[2, " + at + ", " + calendar + "]",
                "setTimestamp[9, " + at + ", " + calendar + "]", "setObject[10, x, 2, 2]"), replayed.calls());

        statement.setString(2, "replaced");   // no second argument: the one of the call it replaces goes
        statement.setNull(9, java.sql.Types.VARCHAR);
        statement.setObject(10, "y", java.sql.Types.NUMERIC);
        Driver again = new Driver();
        statement.replay(again.of(PreparedStatement.class));
        assertEquals(List.of("setInt[1, 1]", "setString[2, replaced]", "setNull[9, 12]", "setObject[10, y, 2]"),
                again.calls());
        for (Object array : nonNullArrays(statement)) {
            if (array instanceof Object[] objects) {
                for (Object o : objects) {
                    assertNotSame(calendar, o, "the calendar of a replaced call is not kept");
                }
            }
        }
    }

    @Test
    void theOptionsStayWhenTheParametersAreClearedAndGoWhenTheStatementStopsRecording() throws Exception {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setCursorName("cursor");
        statement.setTimestamp(1, new java.sql.Timestamp(1), Calendar.getInstance());
        statement.parametersCleared();
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("setCursorName[cursor]"), replayed.calls());

        statement.unreplayable();
        for (Object array : arrays(statement)) {
            if (array instanceof Object[] objects) {
                for (Object o : objects) {
                    assertNull(o, "nothing kept stays reachable");
                }
            }
        }
    }

    @Test
    void aBodyOpenedForTheNextStatementKeepsNothingOfTheLastOnesParametersOrOptions() throws Exception {
        ForwardingPreparedStatement statement = statement(new Driver().of(PreparedStatement.class));
        statement.setString(30, "far");   // the arrays grow long and stay so for the next statements
        statement.setTimestamp(3, new java.sql.Timestamp(1), Calendar.getInstance());
        statement.setLong(1, 1L);
        statement.setFetchSize(10);
        statement.forget();   // closed: the connection may open it again for its next statement
        assertAllEmpty(statement);

        statement.open(null, new Driver().of(PreparedStatement.class), true);
        statement.setLong(2, 2L);
        Driver replayed = new Driver();
        statement.replay(replayed.of(PreparedStatement.class));
        assertEquals(List.of("setLong[2, 2]"), replayed.calls(), "only the new statement's call");

        statement.setBinaryStream(4, new ByteArrayInputStream(new byte[] {1}));
        statement.streamsRead();
        assertFalse(statement.canReplay(), "a stream read within the slots set is seen");
        statement.forget();
        assertAllEmpty(statement);
        statement.open(null, new Driver().of(PreparedStatement.class), true);
        assertTrue(statement.canReplay());
        Driver none = new Driver();
        statement.replay(none.of(PreparedStatement.class));
        assertEquals(List.of(), none.calls());
    }

    /** Every slot of every array of {@code statement} is empty: 0 or null. */
    private static void assertAllEmpty(ForwardingPreparedStatement statement) throws IllegalAccessException {
        for (Object array : nonNullArrays(statement)) {
            for (int i = 0; i < java.lang.reflect.Array.getLength(array); i++) {
                Object slot = java.lang.reflect.Array.get(array, i);
                assertTrue(slot == null || slot.equals(0) || slot.equals(0L), "slot " + i + " still holds " + slot);
            }
        }
    }

    private static List<Object> nonNullArrays(ForwardingPreparedStatement statement) throws IllegalAccessException {
        List<Object> arrays = new ArrayList<>(arrays(statement));
        arrays.removeIf(java.util.Objects::isNull);
        return arrays;
    }

    /** The array fields of the statement, in declaration order. */
    private static List<Object> arrays(ForwardingPreparedStatement statement) throws IllegalAccessException {
        List<Object> arrays = new ArrayList<>();
        for (Field f : ForwardingPreparedStatement.class.getDeclaredFields()) {
            if (f.getType().isArray() && !Modifier.isStatic(f.getModifiers())) {
                f.setAccessible(true);
                arrays.add(f.get(statement));
            }
        }
        assertFalse(arrays.isEmpty());
        return arrays;
    }
}
