package io.rwsplit.bench.layer;

/**
 * The no-op driver's connection ({@link NoopJdbc}): a plain class, so that what a routing layer asks of a connection
 * costs what it costs of a real driver's (a field, identity for {@code hashCode}), not a reflective dispatch. Its
 * statements prepare no-op statements; it remembers its autocommit mode and whether it is closed. Generated from the
 * JDK's {@code java.sql.Connection}, then edited by hand where it answers.
 */
final class NoopConnection implements java.sql.Connection {

    private boolean autoCommit = true;
    private boolean closed;

    @Override
    public void abort(java.util.concurrent.Executor a0) {
    }

    @Override
    public void beginRequest() {
    }

    @Override
    public void clearWarnings() {
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public void commit() {
    }

    @Override
    public java.sql.Array createArrayOf(String a0, Object[] a1) {
        return null;
    }

    @Override
    public java.sql.Blob createBlob() {
        return null;
    }

    @Override
    public java.sql.Clob createClob() {
        return null;
    }

    @Override
    public java.sql.NClob createNClob() {
        return null;
    }

    @Override
    public java.sql.SQLXML createSQLXML() {
        return null;
    }

    @Override
    public java.sql.Statement createStatement() {
        return NoopJdbc.statement();
    }

    @Override
    public java.sql.Statement createStatement(int a0, int a1, int a2) {
        return NoopJdbc.statement();
    }

    @Override
    public java.sql.Statement createStatement(int a0, int a1) {
        return NoopJdbc.statement();
    }

    @Override
    public java.sql.Struct createStruct(String a0, Object[] a1) {
        return null;
    }

    @Override
    public void endRequest() {
    }

    @Override
    public boolean getAutoCommit() {
        return autoCommit;
    }

    @Override
    public java.lang.String getCatalog() {
        return null;
    }

    @Override
    public java.util.Properties getClientInfo() {
        return null;
    }

    @Override
    public java.lang.String getClientInfo(String a0) {
        return null;
    }

    @Override
    public int getHoldability() {
        return java.sql.ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public java.sql.DatabaseMetaData getMetaData() {
        return null;
    }

    @Override
    public int getNetworkTimeout() {
        return 0;
    }

    @Override
    public java.lang.String getSchema() {
        return null;
    }

    @Override
    public int getTransactionIsolation() {
        return TRANSACTION_READ_COMMITTED;
    }

    @Override
    public java.util.Map getTypeMap() {
        return null;
    }

    @Override
    public java.sql.SQLWarning getWarnings() {
        return null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public boolean isValid(int a0) {
        return true;
    }

    @Override
    public boolean isWrapperFor(Class<?> a0) {
        return false;
    }

    @Override
    public java.lang.String nativeSQL(String a0) {
        return null;
    }

    @Override
    public java.sql.CallableStatement prepareCall(String a0, int a1, int a2, int a3) {
        return null;
    }

    @Override
    public java.sql.CallableStatement prepareCall(String a0, int a1, int a2) {
        return null;
    }

    @Override
    public java.sql.CallableStatement prepareCall(String a0) {
        return null;
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(String a0, int[] a1) {
        return NoopJdbc.preparedStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(String a0, String[] a1) {
        return NoopJdbc.preparedStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(String a0, int a1, int a2, int a3) {
        return NoopJdbc.preparedStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(String a0, int a1, int a2) {
        return NoopJdbc.preparedStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(String a0, int a1) {
        return NoopJdbc.preparedStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(String a0) {
        return NoopJdbc.preparedStatement();
    }

    @Override
    public void releaseSavepoint(java.sql.Savepoint a0) {
    }

    @Override
    public void rollback() {
    }

    @Override
    public void rollback(java.sql.Savepoint a0) {
    }

    @Override
    public void setAutoCommit(boolean a0) {
        autoCommit = a0;
    }

    @Override
    public void setCatalog(String a0) {
    }

    @Override
    public void setClientInfo(String a0, String a1) {
    }

    @Override
    public void setClientInfo(java.util.Properties a0) {
    }

    @Override
    public void setHoldability(int a0) {
    }

    @Override
    public void setNetworkTimeout(java.util.concurrent.Executor a0, int a1) {
    }

    @Override
    public void setReadOnly(boolean a0) {
    }

    @Override
    public java.sql.Savepoint setSavepoint() {
        return null;
    }

    @Override
    public java.sql.Savepoint setSavepoint(String a0) {
        return null;
    }

    @Override
    public void setSchema(String a0) {
    }

    @Override
    public void setShardingKey(java.sql.ShardingKey a0, java.sql.ShardingKey a1) {
    }

    @Override
    public void setShardingKey(java.sql.ShardingKey a0) {
    }

    @Override
    public boolean setShardingKeyIfValid(java.sql.ShardingKey a0, int a1) {
        return false;
    }

    @Override
    public boolean setShardingKeyIfValid(java.sql.ShardingKey a0, java.sql.ShardingKey a1, int a2) {
        return false;
    }

    @Override
    public void setTransactionIsolation(int a0) {
    }

    @Override
    public void setTypeMap(java.util.Map<String, Class<?>> a0) {
    }

    @Override
    public <T> T unwrap(Class<T> a0) {
        return null;
    }
}
