package io.rwsplit.internal.route;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;

/**
 * The options of a {@link RoutedStatement} (fetch size, timeouts, ...): each setter is recorded and applied to the
 * current driver statement, and replayed on every driver statement created later ({@link #replayOptions}); getters
 * read the driver statement's.
 */
abstract class StatementOptions implements Statement {

    /** One recorded option setter, replayed on every driver statement this statement creates. */
    @FunctionalInterface
    private interface Option {
        void apply(Statement statement) throws SQLException;
    }

    private final ArrayList<Option> options = new ArrayList<>(2);

    /** The driver statement of the last execution, or null before the first. */
    abstract Statement current();

    /** The driver statement, created on the connection of the current transaction if nothing ran yet. */
    abstract Statement prepared() throws SQLException;

    abstract void checkOpen() throws SQLException;

    /** The statement is closed: its options are forgotten (the list stays, for the body's next statement). */
    final void forgetOptions() {
        options.clear();
    }

    /** Applies the options set so far to a new driver statement. */
    final void replayOptions(Statement next) throws SQLException {
        for (int i = 0; i < options.size(); i++) {   // no iterator: a statement created per read allocates nothing here
            options.get(i).apply(next);
        }
    }

    private void option(Option option) throws SQLException {
        checkOpen();
        options.add(option);
        Statement current = current();
        if (current != null) {
            option.apply(current);
        }
    }

    // ------------------------------------------------------------------ options (recorded and replayed)

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        option(s -> s.setMaxFieldSize(max));
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        option(s -> s.setMaxRows(max));
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        option(s -> s.setLargeMaxRows(max));
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        option(s -> s.setEscapeProcessing(enable));
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        option(s -> s.setQueryTimeout(seconds));
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        option(s -> s.setCursorName(name));
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        option(s -> s.setFetchDirection(direction));
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        option(s -> s.setFetchSize(rows));
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        option(s -> s.setPoolable(poolable));
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        option(Statement::closeOnCompletion);
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
