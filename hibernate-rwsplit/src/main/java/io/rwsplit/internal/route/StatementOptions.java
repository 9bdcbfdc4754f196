package io.rwsplit.internal.route;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The options of a {@link RoutedStatement} (fetch size, timeouts, ...): each setter is applied to the current driver
 * statement and kept, and replayed on every driver statement created later ({@link #replayOptions}); getters read the
 * driver statement's. One call per setter is kept, its last: an application that reuses one statement and sets its
 * fetch size before each query keeps one call, not one per query, and a move replays each option once.
 */
abstract class StatementOptions implements Statement {

    // The option setters, by the numbers kept in setters. setMaxRows and setLargeMaxRows set one limit: each is kept
    // apart, and the later of the two is replayed after the other, so that it wins as it did.
    private static final int MAX_FIELD_SIZE = 1, MAX_ROWS = 2, LARGE_MAX_ROWS = 3, ESCAPE_PROCESSING = 4,
            QUERY_TIMEOUT = 5, CURSOR_NAME = 6, FETCH_DIRECTION = 7, FETCH_SIZE = 8, POOLABLE = 9,
            CLOSE_ON_COMPLETION = 10;
    /** How many option setters there are: the most calls kept. */
    private static final int SETTERS = 10;

    /**
     * The setters kept, each once, in the order of their last calls: a driver may check one option against another as
     * it is set (H2 and Derby refuse a fetch size above the max rows), so each is replayed where the application last
     * set it, meeting the others as they were then (or as a new statement has them). Made at the first option kept,
     * then kept, emptied, by the body for its next statements: setting an option allocates nothing after that.
     */
    private int[] setters;
    /** The argument of each kept call, beside its setter: an int widened, a boolean as 1 or 0 (a cursor name apart). */
    private long[] arguments;
    /** How many calls are kept. */
    private int kept;
    /** The argument of a kept {@code setCursorName} call, the one option that takes an object. */
    private String cursorName;

    /** The driver statement of the last execution, or null before the first. */
    abstract Statement current();

    /** The driver statement a pending batch was added to when it is another than {@link #current()}, or null. */
    abstract Statement pendingBatch();

    /** The driver statement, created on the connection of the current transaction if nothing ran yet. */
    abstract Statement prepared() throws SQLException;

    abstract void checkOpen() throws SQLException;

    /** The statement is closed: its options are forgotten (the arrays stay, emptied, for the body's next statement). */
    final void forgetOptions() {
        if (kept != 0) {
            java.util.Arrays.fill(setters, 0, kept, 0);
            java.util.Arrays.fill(arguments, 0, kept, 0L);
            kept = 0;
        }
        cursorName = null;
    }

    /**
     * Whether {@code closeOnCompletion()} was called (JDBC has no way back): the statement is closed once a driver
     * statement of it closed with its results. Nothing to look at for a statement that kept no option.
     */
    final boolean closesOnCompletion() {
        for (int i = 0; i < kept; i++) {
            if (setters[i] == CLOSE_ON_COMPLETION) {
                return true;
            }
        }
        return false;
    }

    /** Applies the options set so far to a new driver statement, in the order of their last calls. */
    final void replayOptions(Statement next) throws SQLException {
        for (int i = 0; i < kept; i++) {
            apply(next, setters[i], arguments[i], cursorName);
        }
    }

    /**
     * A setter call: applied to the current driver statement first, so that a value the driver refuses throws here and
     * is not kept (replayed, it would fail every later move of the statement), then kept as the setter's last call. A
     * driver statement closed under the statement (its connection given back after a failure) gets nothing: the next
     * execution makes a new one, and replays.
     */
    private void option(int setter, long argument, String name) throws SQLException {
        checkOpen();
        Statement current = current();
        if (current != null && !current.isClosed()) {
            apply(current, setter, argument, name);
        }
        Statement batch = pendingBatch();   // it runs with the options set before its execution too
        if (batch != null && batch != current && !batch.isClosed()) {
            apply(batch, setter, argument, name);
        }
        if (setter == CURSOR_NAME) {
            cursorName = name;
        }
        keep(setter, argument);
    }

    /** Keeps {@code setter}'s call as its last: an earlier call of it goes, the calls kept after that one move up. */
    private void keep(int setter, long argument) {
        if (setters == null) {
            setters = new int[SETTERS];
            arguments = new long[SETTERS];
        }
        int at = 0;
        while (at < kept && setters[at] != setter) {
            at++;
        }
        if (at < kept) {
            kept--;
            System.arraycopy(setters, at + 1, setters, at, kept - at);
            System.arraycopy(arguments, at + 1, arguments, at, kept - at);
        }
        setters[kept] = setter;
        arguments[kept] = argument;
        kept++;
    }

    /** Makes the call of {@code setter} with {@code argument} (or {@code name}, a cursor's) on {@code s}. */
    private static void apply(Statement s, int setter, long argument, String name) throws SQLException {
        switch (setter) {
            case MAX_FIELD_SIZE -> s.setMaxFieldSize((int) argument);
            case MAX_ROWS -> s.setMaxRows((int) argument);
            case LARGE_MAX_ROWS -> s.setLargeMaxRows(argument);
            case ESCAPE_PROCESSING -> s.setEscapeProcessing(argument != 0);
            case QUERY_TIMEOUT -> s.setQueryTimeout((int) argument);
            case CURSOR_NAME -> s.setCursorName(name);
            case FETCH_DIRECTION -> s.setFetchDirection((int) argument);
            case FETCH_SIZE -> s.setFetchSize((int) argument);
            case POOLABLE -> s.setPoolable(argument != 0);
            case CLOSE_ON_COMPLETION -> s.closeOnCompletion();
            default -> throw new IllegalArgumentException("no option setter " + setter);
        }
    }

    // ------------------------------------------------------------------ options (kept and replayed)

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        option(MAX_FIELD_SIZE, max, null);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        option(MAX_ROWS, max, null);
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        option(LARGE_MAX_ROWS, max, null);
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        option(ESCAPE_PROCESSING, enable ? 1 : 0, null);
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        option(QUERY_TIMEOUT, seconds, null);
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        option(CURSOR_NAME, 0, name);
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        option(FETCH_DIRECTION, direction, null);
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        option(FETCH_SIZE, rows, null);
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        option(POOLABLE, poolable ? 1 : 0, null);
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        option(CLOSE_ON_COMPLETION, 0, null);
    }

    // ------------------------------------------------------------------ getters (the driver statement's)

    @Override
    public int getMaxFieldSize() throws SQLException {
        return prepared().getMaxFieldSize();
    }

    @Override
    public int getMaxRows() throws SQLException {
        return prepared().getMaxRows();
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return prepared().getLargeMaxRows();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        return prepared().getQueryTimeout();
    }

    @Override
    public int getFetchDirection() throws SQLException {
        return prepared().getFetchDirection();
    }

    @Override
    public int getFetchSize() throws SQLException {
        return prepared().getFetchSize();
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        return prepared().getResultSetConcurrency();
    }

    @Override
    public int getResultSetType() throws SQLException {
        return prepared().getResultSetType();
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return prepared().getResultSetHoldability();
    }

    @Override
    public boolean isPoolable() throws SQLException {
        return prepared().isPoolable();
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        return prepared().isCloseOnCompletion();
    }

    @Override
    public String enquoteLiteral(String val) throws SQLException {
        return prepared().enquoteLiteral(val);
    }

    @Override
    public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException {
        return prepared().enquoteIdentifier(identifier, alwaysQuote);
    }

    @Override
    public boolean isSimpleIdentifier(String identifier) throws SQLException {
        return prepared().isSimpleIdentifier(identifier);
    }

    @Override
    public String enquoteNCharLiteral(String val) throws SQLException {
        return prepared().enquoteNCharLiteral(val);
    }
}
