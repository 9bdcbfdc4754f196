package io.rwsplit.route;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Forwards every call to {@link #delegate}. While {@link #bindings} is not null, every setter call
 * (parameters and statement options such as fetch size or query timeout) is also recorded there, so
 * that the statement can be prepared again elsewhere and replayed. A stream or reader parameter cannot
 * be replayed and stops the recording ({@link #unreplayable()}).
 * <p>
 * {@link #getConnection()} returns the routing connection, never the physical one. The forwarding methods
 * below are mechanical; the behaviour lives in the subclasses.
 */
abstract class ForwardingPreparedStatement implements PreparedStatement {

    /** One recorded setter call. */
    @FunctionalInterface
    interface Binding {
        void apply(PreparedStatement statement) throws SQLException;
    }

    /** The routing connection the statement belongs to, what {@link #getConnection()} returns. */
    final java.sql.Connection owner;
    PreparedStatement delegate;
    /** The recorded setter calls ({@link #bound} of them), or null when the statement cannot be replayed. */
    Binding[] bindings;
    int bound;

    ForwardingPreparedStatement(java.sql.Connection owner, PreparedStatement delegate, boolean record) {
        this.owner = owner;
        this.delegate = delegate;
        this.bindings = record ? new Binding[4] : null;
    }

    /** Records one setter call (while recording). */
    final void bind(Binding binding) {
        if (bound == bindings.length) {
            bindings = java.util.Arrays.copyOf(bindings, bound * 2);
        }
        bindings[bound++] = binding;
    }

    /** A parameter that cannot be set twice (a stream) was bound: the statement can no longer be replayed. */
    void unreplayable() {
        bindings = null;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : delegate.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || delegate.isWrapperFor(iface);
    }

    @Override
    public void addBatch() throws SQLException {
        delegate.addBatch();
    }

    @Override
    public void addBatch(String a0) throws SQLException {
        delegate.addBatch(a0);
    }

    @Override
    public void cancel() throws SQLException {
        delegate.cancel();
    }

    @Override
    public void clearBatch() throws SQLException {
        delegate.clearBatch();
    }

    @Override
    public void clearParameters() throws SQLException {
        delegate.clearParameters();
    }

    @Override
    public void clearWarnings() throws SQLException {
        delegate.clearWarnings();
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        delegate.closeOnCompletion();
    }

    @Override
    public void close() throws SQLException {
        delegate.close();
    }

    @Override
    public String enquoteIdentifier(String a0, boolean a1) throws SQLException {
        return delegate.enquoteIdentifier(a0, a1);
    }

    @Override
    public String enquoteLiteral(String a0) throws SQLException {
        return delegate.enquoteLiteral(a0);
    }

    @Override
    public String enquoteNCharLiteral(String a0) throws SQLException {
        return delegate.enquoteNCharLiteral(a0);
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return delegate.executeBatch();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        return delegate.executeLargeBatch();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return delegate.executeLargeUpdate();
    }

    @Override
    public long executeLargeUpdate(String a0, int[] a1) throws SQLException {
        return delegate.executeLargeUpdate(a0, a1);
    }

    @Override
    public long executeLargeUpdate(String a0, String[] a1) throws SQLException {
        return delegate.executeLargeUpdate(a0, a1);
    }

    @Override
    public long executeLargeUpdate(String a0, int a1) throws SQLException {
        return delegate.executeLargeUpdate(a0, a1);
    }

    @Override
    public long executeLargeUpdate(String a0) throws SQLException {
        return delegate.executeLargeUpdate(a0);
    }

    @Override
    public java.sql.ResultSet executeQuery() throws SQLException {
        return delegate.executeQuery();
    }

    @Override
    public java.sql.ResultSet executeQuery(String a0) throws SQLException {
        return delegate.executeQuery(a0);
    }

    @Override
    public int executeUpdate() throws SQLException {
        return delegate.executeUpdate();
    }

    @Override
    public int executeUpdate(String a0, int[] a1) throws SQLException {
        return delegate.executeUpdate(a0, a1);
    }

    @Override
    public int executeUpdate(String a0, String[] a1) throws SQLException {
        return delegate.executeUpdate(a0, a1);
    }

    @Override
    public int executeUpdate(String a0, int a1) throws SQLException {
        return delegate.executeUpdate(a0, a1);
    }

    @Override
    public int executeUpdate(String a0) throws SQLException {
        return delegate.executeUpdate(a0);
    }

    @Override
    public boolean execute() throws SQLException {
        return delegate.execute();
    }

    @Override
    public boolean execute(String a0, int[] a1) throws SQLException {
        return delegate.execute(a0, a1);
    }

    @Override
    public boolean execute(String a0, String[] a1) throws SQLException {
        return delegate.execute(a0, a1);
    }

    @Override
    public boolean execute(String a0, int a1) throws SQLException {
        return delegate.execute(a0, a1);
    }

    @Override
    public boolean execute(String a0) throws SQLException {
        return delegate.execute(a0);
    }

    @Override
    public java.sql.Connection getConnection() {
        return owner;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        return delegate.getFetchDirection();
    }

    @Override
    public int getFetchSize() throws SQLException {
        return delegate.getFetchSize();
    }

    @Override
    public java.sql.ResultSet getGeneratedKeys() throws SQLException {
        return delegate.getGeneratedKeys();
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return delegate.getLargeMaxRows();
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        return delegate.getLargeUpdateCount();
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        return delegate.getMaxFieldSize();
    }

    @Override
    public int getMaxRows() throws SQLException {
        return delegate.getMaxRows();
    }

    @Override
    public java.sql.ResultSetMetaData getMetaData() throws SQLException {
        return delegate.getMetaData();
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return delegate.getMoreResults();
    }

    @Override
    public boolean getMoreResults(int a0) throws SQLException {
        return delegate.getMoreResults(a0);
    }

    @Override
    public java.sql.ParameterMetaData getParameterMetaData() throws SQLException {
        return delegate.getParameterMetaData();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        return delegate.getQueryTimeout();
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        return delegate.getResultSetConcurrency();
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return delegate.getResultSetHoldability();
    }

    @Override
    public int getResultSetType() throws SQLException {
        return delegate.getResultSetType();
    }

    @Override
    public java.sql.ResultSet getResultSet() throws SQLException {
        return delegate.getResultSet();
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return delegate.getUpdateCount();
    }

    @Override
    public java.sql.SQLWarning getWarnings() throws SQLException {
        return delegate.getWarnings();
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        return delegate.isCloseOnCompletion();
    }

    @Override
    public boolean isClosed() throws SQLException {
        return delegate.isClosed();
    }

    @Override
    public boolean isPoolable() throws SQLException {
        return delegate.isPoolable();
    }

    @Override
    public boolean isSimpleIdentifier(String a0) throws SQLException {
        return delegate.isSimpleIdentifier(a0);
    }

    @Override
    public void setArray(int a0, java.sql.Array a1) throws SQLException {
        delegate.setArray(a0, a1);
        if (bindings != null) {
            bind(s -> s.setArray(a0, a1));
        }
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
        delegate.setAsciiStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
        delegate.setAsciiStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1) throws SQLException {
        delegate.setAsciiStream(a0, a1);
        unreplayable();
    }

    @Override
    public void setBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
        delegate.setBigDecimal(a0, a1);
        if (bindings != null) {
            bind(s -> s.setBigDecimal(a0, a1));
        }
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
        delegate.setBinaryStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
        delegate.setBinaryStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1) throws SQLException {
        delegate.setBinaryStream(a0, a1);
        unreplayable();
    }

    @Override
    public void setBlob(int a0, java.io.InputStream a1, long a2) throws SQLException {
        delegate.setBlob(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setBlob(int a0, java.io.InputStream a1) throws SQLException {
        delegate.setBlob(a0, a1);
        unreplayable();
    }

    @Override
    public void setBlob(int a0, java.sql.Blob a1) throws SQLException {
        delegate.setBlob(a0, a1);
        if (bindings != null) {
            bind(s -> s.setBlob(a0, a1));
        }
    }

    @Override
    public void setBoolean(int a0, boolean a1) throws SQLException {
        delegate.setBoolean(a0, a1);
        if (bindings != null) {
            bind(s -> s.setBoolean(a0, a1));
        }
    }

    @Override
    public void setByte(int a0, byte a1) throws SQLException {
        delegate.setByte(a0, a1);
        if (bindings != null) {
            bind(s -> s.setByte(a0, a1));
        }
    }

    @Override
    public void setBytes(int a0, byte[] a1) throws SQLException {
        delegate.setBytes(a0, a1);
        if (bindings != null) {
            bind(s -> s.setBytes(a0, a1));
        }
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1, int a2) throws SQLException {
        delegate.setCharacterStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
        delegate.setCharacterStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1) throws SQLException {
        delegate.setCharacterStream(a0, a1);
        unreplayable();
    }

    @Override
    public void setClob(int a0, java.io.Reader a1, long a2) throws SQLException {
        delegate.setClob(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setClob(int a0, java.io.Reader a1) throws SQLException {
        delegate.setClob(a0, a1);
        unreplayable();
    }

    @Override
    public void setClob(int a0, java.sql.Clob a1) throws SQLException {
        delegate.setClob(a0, a1);
        if (bindings != null) {
            bind(s -> s.setClob(a0, a1));
        }
    }

    @Override
    public void setCursorName(String a0) throws SQLException {
        delegate.setCursorName(a0);
        if (bindings != null) {
            bind(s -> s.setCursorName(a0));
        }
    }

    @Override
    public void setDate(int a0, java.sql.Date a1, java.util.Calendar a2) throws SQLException {
        delegate.setDate(a0, a1, a2);
        if (bindings != null) {
            bind(s -> s.setDate(a0, a1, a2));
        }
    }

    @Override
    public void setDate(int a0, java.sql.Date a1) throws SQLException {
        delegate.setDate(a0, a1);
        if (bindings != null) {
            bind(s -> s.setDate(a0, a1));
        }
    }

    @Override
    public void setDouble(int a0, double a1) throws SQLException {
        delegate.setDouble(a0, a1);
        if (bindings != null) {
            bind(s -> s.setDouble(a0, a1));
        }
    }

    @Override
    public void setEscapeProcessing(boolean a0) throws SQLException {
        delegate.setEscapeProcessing(a0);
        if (bindings != null) {
            bind(s -> s.setEscapeProcessing(a0));
        }
    }

    @Override
    public void setFetchDirection(int a0) throws SQLException {
        delegate.setFetchDirection(a0);
        if (bindings != null) {
            bind(s -> s.setFetchDirection(a0));
        }
    }

    @Override
    public void setFetchSize(int a0) throws SQLException {
        delegate.setFetchSize(a0);
        if (bindings != null) {
            bind(s -> s.setFetchSize(a0));
        }
    }

    @Override
    public void setFloat(int a0, float a1) throws SQLException {
        delegate.setFloat(a0, a1);
        if (bindings != null) {
            bind(s -> s.setFloat(a0, a1));
        }
    }

    @Override
    public void setInt(int a0, int a1) throws SQLException {
        delegate.setInt(a0, a1);
        if (bindings != null) {
            bind(s -> s.setInt(a0, a1));
        }
    }

    @Override
    public void setLargeMaxRows(long a0) throws SQLException {
        delegate.setLargeMaxRows(a0);
        if (bindings != null) {
            bind(s -> s.setLargeMaxRows(a0));
        }
    }

    @Override
    public void setLong(int a0, long a1) throws SQLException {
        delegate.setLong(a0, a1);
        if (bindings != null) {
            bind(s -> s.setLong(a0, a1));
        }
    }

    @Override
    public void setMaxFieldSize(int a0) throws SQLException {
        delegate.setMaxFieldSize(a0);
        if (bindings != null) {
            bind(s -> s.setMaxFieldSize(a0));
        }
    }

    @Override
    public void setMaxRows(int a0) throws SQLException {
        delegate.setMaxRows(a0);
        if (bindings != null) {
            bind(s -> s.setMaxRows(a0));
        }
    }

    @Override
    public void setNCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
        delegate.setNCharacterStream(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setNCharacterStream(int a0, java.io.Reader a1) throws SQLException {
        delegate.setNCharacterStream(a0, a1);
        unreplayable();
    }

    @Override
    public void setNClob(int a0, java.io.Reader a1, long a2) throws SQLException {
        delegate.setNClob(a0, a1, a2);
        unreplayable();
    }

    @Override
    public void setNClob(int a0, java.io.Reader a1) throws SQLException {
        delegate.setNClob(a0, a1);
        unreplayable();
    }

    @Override
    public void setNClob(int a0, java.sql.NClob a1) throws SQLException {
        delegate.setNClob(a0, a1);
        if (bindings != null) {
            bind(s -> s.setNClob(a0, a1));
        }
    }

    @Override
    public void setNString(int a0, String a1) throws SQLException {
        delegate.setNString(a0, a1);
        if (bindings != null) {
            bind(s -> s.setNString(a0, a1));
        }
    }

    @Override
    public void setNull(int a0, int a1, String a2) throws SQLException {
        delegate.setNull(a0, a1, a2);
        if (bindings != null) {
            bind(s -> s.setNull(a0, a1, a2));
        }
    }

    @Override
    public void setNull(int a0, int a1) throws SQLException {
        delegate.setNull(a0, a1);
        if (bindings != null) {
            bind(s -> s.setNull(a0, a1));
        }
    }

    @Override
    public void setObject(int a0, Object a1, int a2, int a3) throws SQLException {
        delegate.setObject(a0, a1, a2, a3);
        if (bindings != null) {
            bind(s -> s.setObject(a0, a1, a2, a3));
        }
    }

    @Override
    public void setObject(int a0, Object a1, int a2) throws SQLException {
        delegate.setObject(a0, a1, a2);
        if (bindings != null) {
            bind(s -> s.setObject(a0, a1, a2));
        }
    }

    @Override
    public void setObject(int a0, Object a1, java.sql.SQLType a2, int a3) throws SQLException {
        delegate.setObject(a0, a1, a2, a3);
        if (bindings != null) {
            bind(s -> s.setObject(a0, a1, a2, a3));
        }
    }

    @Override
    public void setObject(int a0, Object a1, java.sql.SQLType a2) throws SQLException {
        delegate.setObject(a0, a1, a2);
        if (bindings != null) {
            bind(s -> s.setObject(a0, a1, a2));
        }
    }

    @Override
    public void setObject(int a0, Object a1) throws SQLException {
        delegate.setObject(a0, a1);
        if (bindings != null) {
            bind(s -> s.setObject(a0, a1));
        }
    }

    @Override
    public void setPoolable(boolean a0) throws SQLException {
        delegate.setPoolable(a0);
        if (bindings != null) {
            bind(s -> s.setPoolable(a0));
        }
    }

    @Override
    public void setQueryTimeout(int a0) throws SQLException {
        delegate.setQueryTimeout(a0);
        if (bindings != null) {
            bind(s -> s.setQueryTimeout(a0));
        }
    }

    @Override
    public void setRef(int a0, java.sql.Ref a1) throws SQLException {
        delegate.setRef(a0, a1);
        if (bindings != null) {
            bind(s -> s.setRef(a0, a1));
        }
    }

    @Override
    public void setRowId(int a0, java.sql.RowId a1) throws SQLException {
        delegate.setRowId(a0, a1);
        if (bindings != null) {
            bind(s -> s.setRowId(a0, a1));
        }
    }

    @Override
    public void setSQLXML(int a0, java.sql.SQLXML a1) throws SQLException {
        delegate.setSQLXML(a0, a1);
        if (bindings != null) {
            bind(s -> s.setSQLXML(a0, a1));
        }
    }

    @Override
    public void setShort(int a0, short a1) throws SQLException {
        delegate.setShort(a0, a1);
        if (bindings != null) {
            bind(s -> s.setShort(a0, a1));
        }
    }

    @Override
    public void setString(int a0, String a1) throws SQLException {
        delegate.setString(a0, a1);
        if (bindings != null) {
            bind(s -> s.setString(a0, a1));
        }
    }

    @Override
    public void setTime(int a0, java.sql.Time a1, java.util.Calendar a2) throws SQLException {
        delegate.setTime(a0, a1, a2);
        if (bindings != null) {
            bind(s -> s.setTime(a0, a1, a2));
        }
    }

    @Override
    public void setTime(int a0, java.sql.Time a1) throws SQLException {
        delegate.setTime(a0, a1);
        if (bindings != null) {
            bind(s -> s.setTime(a0, a1));
        }
    }

    @Override
    public void setTimestamp(int a0, java.sql.Timestamp a1, java.util.Calendar a2) throws SQLException {
        delegate.setTimestamp(a0, a1, a2);
        if (bindings != null) {
            bind(s -> s.setTimestamp(a0, a1, a2));
        }
    }

    @Override
    public void setTimestamp(int a0, java.sql.Timestamp a1) throws SQLException {
        delegate.setTimestamp(a0, a1);
        if (bindings != null) {
            bind(s -> s.setTimestamp(a0, a1));
        }
    }

    @Override
    public void setURL(int a0, java.net.URL a1) throws SQLException {
        delegate.setURL(a0, a1);
        if (bindings != null) {
            bind(s -> s.setURL(a0, a1));
        }
    }

    @Override
    public void setUnicodeStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
        delegate.setUnicodeStream(a0, a1, a2);
        unreplayable();
    }
}
