package io.rwsplit.route;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A callable statement of a {@link RoutingConnection}: the {@code PreparedStatement} part forwards through
 * {@link ForwardingPreparedStatement} (which also makes {@link #getConnection()} return the routing connection,
 * so that no caller reaches the physical connection around routing), and its executions go through the
 * connection's {@link Failover} as those of {@code prepareStatement} do ({@link RoutedPreparedStatement}). The
 * methods {@link CallableStatement} adds forward to the driver's statement here; they are mechanical (generated
 * from {@link CallableStatement}). Its setters by name and its OUT parameters are not recorded: once one is called,
 * an execution is not replayed elsewhere (the error goes to the caller, as for a stream parameter).
 */
final class RoutedCallableStatement extends RoutedPreparedStatement implements CallableStatement {

    private final StatementShape shape;
    private CallableStatement callable;

    RoutedCallableStatement(ConnectionRouting routing, StatementRoute route, CallableStatement delegate, String sql,
                            boolean retryable, StatementShape shape) {
        super(routing, route, delegate, sql, retryable);
        this.callable = delegate;
        this.shape = shape;
    }

    @Override
    PreparedStatement prepareAgain(Connection connection) throws SQLException {
        return shape.prepareCall(connection, sql);
    }

    @Override
    void retargeted() {
        callable = (CallableStatement) delegate;
    }

    @Override
    public java.sql.Array getArray(String a0) throws SQLException {
        return callable.getArray(a0);
    }

    @Override
    public java.sql.Array getArray(int a0) throws SQLException {
        return callable.getArray(a0);
    }

    @Override
    public java.math.BigDecimal getBigDecimal(String a0) throws SQLException {
        return callable.getBigDecimal(a0);
    }

    @Override
    public java.math.BigDecimal getBigDecimal(int a0, int a1) throws SQLException {
        return callable.getBigDecimal(a0, a1);
    }

    @Override
    public java.math.BigDecimal getBigDecimal(int a0) throws SQLException {
        return callable.getBigDecimal(a0);
    }

    @Override
    public java.sql.Blob getBlob(String a0) throws SQLException {
        return callable.getBlob(a0);
    }

    @Override
    public java.sql.Blob getBlob(int a0) throws SQLException {
        return callable.getBlob(a0);
    }

    @Override
    public boolean getBoolean(String a0) throws SQLException {
        return callable.getBoolean(a0);
    }

    @Override
    public boolean getBoolean(int a0) throws SQLException {
        return callable.getBoolean(a0);
    }

    @Override
    public byte getByte(String a0) throws SQLException {
        return callable.getByte(a0);
    }

    @Override
    public byte getByte(int a0) throws SQLException {
        return callable.getByte(a0);
    }

    @Override
    public byte[] getBytes(String a0) throws SQLException {
        return callable.getBytes(a0);
    }

    @Override
    public byte[] getBytes(int a0) throws SQLException {
        return callable.getBytes(a0);
    }

    @Override
    public java.io.Reader getCharacterStream(String a0) throws SQLException {
        return callable.getCharacterStream(a0);
    }

    @Override
    public java.io.Reader getCharacterStream(int a0) throws SQLException {
        return callable.getCharacterStream(a0);
    }

    @Override
    public java.sql.Clob getClob(String a0) throws SQLException {
        return callable.getClob(a0);
    }

    @Override
    public java.sql.Clob getClob(int a0) throws SQLException {
        return callable.getClob(a0);
    }

    @Override
    public java.sql.Date getDate(String a0, java.util.Calendar a1) throws SQLException {
        return callable.getDate(a0, a1);
    }

    @Override
    public java.sql.Date getDate(String a0) throws SQLException {
        return callable.getDate(a0);
    }

    @Override
    public java.sql.Date getDate(int a0, java.util.Calendar a1) throws SQLException {
        return callable.getDate(a0, a1);
    }

    @Override
    public java.sql.Date getDate(int a0) throws SQLException {
        return callable.getDate(a0);
    }

    @Override
    public double getDouble(String a0) throws SQLException {
        return callable.getDouble(a0);
    }

    @Override
    public double getDouble(int a0) throws SQLException {
        return callable.getDouble(a0);
    }

    @Override
    public float getFloat(String a0) throws SQLException {
        return callable.getFloat(a0);
    }

    @Override
    public float getFloat(int a0) throws SQLException {
        return callable.getFloat(a0);
    }

    @Override
    public int getInt(String a0) throws SQLException {
        return callable.getInt(a0);
    }

    @Override
    public int getInt(int a0) throws SQLException {
        return callable.getInt(a0);
    }

    @Override
    public long getLong(String a0) throws SQLException {
        return callable.getLong(a0);
    }

    @Override
    public long getLong(int a0) throws SQLException {
        return callable.getLong(a0);
    }

    @Override
    public java.io.Reader getNCharacterStream(String a0) throws SQLException {
        return callable.getNCharacterStream(a0);
    }

    @Override
    public java.io.Reader getNCharacterStream(int a0) throws SQLException {
        return callable.getNCharacterStream(a0);
    }

    @Override
    public java.sql.NClob getNClob(String a0) throws SQLException {
        return callable.getNClob(a0);
    }

    @Override
    public java.sql.NClob getNClob(int a0) throws SQLException {
        return callable.getNClob(a0);
    }

    @Override
    public String getNString(String a0) throws SQLException {
        return callable.getNString(a0);
    }

    @Override
    public String getNString(int a0) throws SQLException {
        return callable.getNString(a0);
    }

    @Override
    public <T> T getObject(String a0, Class<T> a1) throws SQLException {
        return callable.getObject(a0, a1);
    }

    @Override
    public Object getObject(String a0, java.util.Map<String, Class<?>> a1) throws SQLException {
        return callable.getObject(a0, a1);
    }

    @Override
    public Object getObject(String a0) throws SQLException {
        return callable.getObject(a0);
    }

    @Override
    public <T> T getObject(int a0, Class<T> a1) throws SQLException {
        return callable.getObject(a0, a1);
    }

    @Override
    public Object getObject(int a0, java.util.Map<String, Class<?>> a1) throws SQLException {
        return callable.getObject(a0, a1);
    }

    @Override
    public Object getObject(int a0) throws SQLException {
        return callable.getObject(a0);
    }

    @Override
    public java.sql.Ref getRef(String a0) throws SQLException {
        return callable.getRef(a0);
    }

    @Override
    public java.sql.Ref getRef(int a0) throws SQLException {
        return callable.getRef(a0);
    }

    @Override
    public java.sql.RowId getRowId(String a0) throws SQLException {
        return callable.getRowId(a0);
    }

    @Override
    public java.sql.RowId getRowId(int a0) throws SQLException {
        return callable.getRowId(a0);
    }

    @Override
    public java.sql.SQLXML getSQLXML(String a0) throws SQLException {
        return callable.getSQLXML(a0);
    }

    @Override
    public java.sql.SQLXML getSQLXML(int a0) throws SQLException {
        return callable.getSQLXML(a0);
    }

    @Override
    public short getShort(String a0) throws SQLException {
        return callable.getShort(a0);
    }

    @Override
    public short getShort(int a0) throws SQLException {
        return callable.getShort(a0);
    }

    @Override
    public String getString(String a0) throws SQLException {
        return callable.getString(a0);
    }

    @Override
    public String getString(int a0) throws SQLException {
        return callable.getString(a0);
    }

    @Override
    public java.sql.Time getTime(String a0, java.util.Calendar a1) throws SQLException {
        return callable.getTime(a0, a1);
    }

    @Override
    public java.sql.Time getTime(String a0) throws SQLException {
        return callable.getTime(a0);
    }

    @Override
    public java.sql.Time getTime(int a0, java.util.Calendar a1) throws SQLException {
        return callable.getTime(a0, a1);
    }

    @Override
    public java.sql.Time getTime(int a0) throws SQLException {
        return callable.getTime(a0);
    }

    @Override
    public java.sql.Timestamp getTimestamp(String a0, java.util.Calendar a1) throws SQLException {
        return callable.getTimestamp(a0, a1);
    }

    @Override
    public java.sql.Timestamp getTimestamp(String a0) throws SQLException {
        return callable.getTimestamp(a0);
    }

    @Override
    public java.sql.Timestamp getTimestamp(int a0, java.util.Calendar a1) throws SQLException {
        return callable.getTimestamp(a0, a1);
    }

    @Override
    public java.sql.Timestamp getTimestamp(int a0) throws SQLException {
        return callable.getTimestamp(a0);
    }

    @Override
    public java.net.URL getURL(String a0) throws SQLException {
        return callable.getURL(a0);
    }

    @Override
    public java.net.URL getURL(int a0) throws SQLException {
        return callable.getURL(a0);
    }

    @Override
    public void registerOutParameter(String a0, int a1, String a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(String a0, int a1, int a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(String a0, int a1) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1);
    }

    @Override
    public void registerOutParameter(String a0, java.sql.SQLType a1, String a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(String a0, java.sql.SQLType a1, int a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(String a0, java.sql.SQLType a1) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1);
    }

    @Override
    public void registerOutParameter(int a0, int a1, String a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(int a0, int a1, int a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(int a0, int a1) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1);
    }

    @Override
    public void registerOutParameter(int a0, java.sql.SQLType a1, String a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(int a0, java.sql.SQLType a1, int a2) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1, a2);
    }

    @Override
    public void registerOutParameter(int a0, java.sql.SQLType a1) throws SQLException {
        unreplayable();
        callable.registerOutParameter(a0, a1);
    }

    @Override
    public void setAsciiStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
        unreplayable();
        callable.setAsciiStream(a0, a1, a2);
    }

    @Override
    public void setAsciiStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
        unreplayable();
        callable.setAsciiStream(a0, a1, a2);
    }

    @Override
    public void setAsciiStream(String a0, java.io.InputStream a1) throws SQLException {
        unreplayable();
        callable.setAsciiStream(a0, a1);
    }

    @Override
    public void setBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
        unreplayable();
        callable.setBigDecimal(a0, a1);
    }

    @Override
    public void setBinaryStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
        unreplayable();
        callable.setBinaryStream(a0, a1, a2);
    }

    @Override
    public void setBinaryStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
        unreplayable();
        callable.setBinaryStream(a0, a1, a2);
    }

    @Override
    public void setBinaryStream(String a0, java.io.InputStream a1) throws SQLException {
        unreplayable();
        callable.setBinaryStream(a0, a1);
    }

    @Override
    public void setBlob(String a0, java.io.InputStream a1, long a2) throws SQLException {
        unreplayable();
        callable.setBlob(a0, a1, a2);
    }

    @Override
    public void setBlob(String a0, java.io.InputStream a1) throws SQLException {
        unreplayable();
        callable.setBlob(a0, a1);
    }

    @Override
    public void setBlob(String a0, java.sql.Blob a1) throws SQLException {
        unreplayable();
        callable.setBlob(a0, a1);
    }

    @Override
    public void setBoolean(String a0, boolean a1) throws SQLException {
        unreplayable();
        callable.setBoolean(a0, a1);
    }

    @Override
    public void setByte(String a0, byte a1) throws SQLException {
        unreplayable();
        callable.setByte(a0, a1);
    }

    @Override
    public void setBytes(String a0, byte[] a1) throws SQLException {
        unreplayable();
        callable.setBytes(a0, a1);
    }

    @Override
    public void setCharacterStream(String a0, java.io.Reader a1, int a2) throws SQLException {
        unreplayable();
        callable.setCharacterStream(a0, a1, a2);
    }

    @Override
    public void setCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
        unreplayable();
        callable.setCharacterStream(a0, a1, a2);
    }

    @Override
    public void setCharacterStream(String a0, java.io.Reader a1) throws SQLException {
        unreplayable();
        callable.setCharacterStream(a0, a1);
    }

    @Override
    public void setClob(String a0, java.io.Reader a1, long a2) throws SQLException {
        unreplayable();
        callable.setClob(a0, a1, a2);
    }

    @Override
    public void setClob(String a0, java.io.Reader a1) throws SQLException {
        unreplayable();
        callable.setClob(a0, a1);
    }

    @Override
    public void setClob(String a0, java.sql.Clob a1) throws SQLException {
        unreplayable();
        callable.setClob(a0, a1);
    }

    @Override
    public void setDate(String a0, java.sql.Date a1, java.util.Calendar a2) throws SQLException {
        unreplayable();
        callable.setDate(a0, a1, a2);
    }

    @Override
    public void setDate(String a0, java.sql.Date a1) throws SQLException {
        unreplayable();
        callable.setDate(a0, a1);
    }

    @Override
    public void setDouble(String a0, double a1) throws SQLException {
        unreplayable();
        callable.setDouble(a0, a1);
    }

    @Override
    public void setFloat(String a0, float a1) throws SQLException {
        unreplayable();
        callable.setFloat(a0, a1);
    }

    @Override
    public void setInt(String a0, int a1) throws SQLException {
        unreplayable();
        callable.setInt(a0, a1);
    }

    @Override
    public void setLong(String a0, long a1) throws SQLException {
        unreplayable();
        callable.setLong(a0, a1);
    }

    @Override
    public void setNCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
        unreplayable();
        callable.setNCharacterStream(a0, a1, a2);
    }

    @Override
    public void setNCharacterStream(String a0, java.io.Reader a1) throws SQLException {
        unreplayable();
        callable.setNCharacterStream(a0, a1);
    }

    @Override
    public void setNClob(String a0, java.io.Reader a1, long a2) throws SQLException {
        unreplayable();
        callable.setNClob(a0, a1, a2);
    }

    @Override
    public void setNClob(String a0, java.io.Reader a1) throws SQLException {
        unreplayable();
        callable.setNClob(a0, a1);
    }

    @Override
    public void setNClob(String a0, java.sql.NClob a1) throws SQLException {
        unreplayable();
        callable.setNClob(a0, a1);
    }

    @Override
    public void setNString(String a0, String a1) throws SQLException {
        unreplayable();
        callable.setNString(a0, a1);
    }

    @Override
    public void setNull(String a0, int a1, String a2) throws SQLException {
        unreplayable();
        callable.setNull(a0, a1, a2);
    }

    @Override
    public void setNull(String a0, int a1) throws SQLException {
        unreplayable();
        callable.setNull(a0, a1);
    }

    @Override
    public void setObject(String a0, Object a1, int a2, int a3) throws SQLException {
        unreplayable();
        callable.setObject(a0, a1, a2, a3);
    }

    @Override
    public void setObject(String a0, Object a1, int a2) throws SQLException {
        unreplayable();
        callable.setObject(a0, a1, a2);
    }

    @Override
    public void setObject(String a0, Object a1, java.sql.SQLType a2, int a3) throws SQLException {
        unreplayable();
        callable.setObject(a0, a1, a2, a3);
    }

    @Override
    public void setObject(String a0, Object a1, java.sql.SQLType a2) throws SQLException {
        unreplayable();
        callable.setObject(a0, a1, a2);
    }

    @Override
    public void setObject(String a0, Object a1) throws SQLException {
        unreplayable();
        callable.setObject(a0, a1);
    }

    @Override
    public void setRowId(String a0, java.sql.RowId a1) throws SQLException {
        unreplayable();
        callable.setRowId(a0, a1);
    }

    @Override
    public void setSQLXML(String a0, java.sql.SQLXML a1) throws SQLException {
        unreplayable();
        callable.setSQLXML(a0, a1);
    }

    @Override
    public void setShort(String a0, short a1) throws SQLException {
        unreplayable();
        callable.setShort(a0, a1);
    }

    @Override
    public void setString(String a0, String a1) throws SQLException {
        unreplayable();
        callable.setString(a0, a1);
    }

    @Override
    public void setTime(String a0, java.sql.Time a1, java.util.Calendar a2) throws SQLException {
        unreplayable();
        callable.setTime(a0, a1, a2);
    }

    @Override
    public void setTime(String a0, java.sql.Time a1) throws SQLException {
        unreplayable();
        callable.setTime(a0, a1);
    }

    @Override
    public void setTimestamp(String a0, java.sql.Timestamp a1, java.util.Calendar a2) throws SQLException {
        unreplayable();
        callable.setTimestamp(a0, a1, a2);
    }

    @Override
    public void setTimestamp(String a0, java.sql.Timestamp a1) throws SQLException {
        unreplayable();
        callable.setTimestamp(a0, a1);
    }

    @Override
    public void setURL(String a0, java.net.URL a1) throws SQLException {
        unreplayable();
        callable.setURL(a0, a1);
    }

    @Override
    public boolean wasNull() throws SQLException {
        return callable.wasNull();
    }
}
