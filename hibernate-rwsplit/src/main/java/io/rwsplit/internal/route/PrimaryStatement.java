package io.rwsplit.internal.route;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A statement prepared on the primary: forwarding, so that {@link #getConnection()} returns the routing connection
 * rather than the physical one. One that may write tells the connection at every execution, so that a statement
 * executed again (a second row, a later batch) counts as a write as its first execution did; whatever ran in
 * between (a read that recorded the first execution's position) does not hide it.
 */
final class PrimaryStatement extends ForwardingPreparedStatement {

    private final ConnectionRouting routing;
    private final boolean writes;

    PrimaryStatement(ConnectionRouting routing, boolean writes, PreparedStatement delegate) {
        super(routing.owner(), delegate, false);
        this.routing = routing;
        this.writes = writes;
    }

    private void executing() throws SQLException {
        if (writes) {
            routing.writeExecuting();
        }
    }

    @Override
    public int executeUpdate() throws SQLException {
        executing();
        return delegate.executeUpdate();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        executing();
        return delegate.executeLargeUpdate();
    }

    @Override
    public boolean execute() throws SQLException {
        executing();
        return delegate.execute();
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        executing(); // INSERT ... RETURNING, a function that writes
        return results(delegate.executeQuery());
    }

    @Override
    public int[] executeBatch() throws SQLException {
        executing();
        return delegate.executeBatch();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        executing();
        return delegate.executeLargeBatch();
    }
}
