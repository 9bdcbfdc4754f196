package io.rwsplit.internal.route;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import io.rwsplit.internal.stats.QueryShapes;

/**
 * A statement prepared on the primary: forwarding, so that {@link #getConnection()} returns the routing connection
 * rather than the physical one. One that may write tells the connection at every execution, so that a statement
 * executed again (a second row, a later batch) counts as a write as its first execution did; whatever ran in
 * between (a read that recorded the first execution's position) does not hide it. The application holds its
 * handle; once closed, the body is kept by its connection for the next such statement
 * ({@link StatementDoors#idle(PrimaryStatement, RoutingConnection)}).
 */
final class PrimaryStatement extends ForwardingPreparedStatement {

    private final ConnectionRouting routing;
    private boolean writes;
    /**
     * Whether it is a write by kind (a write, a locking read, DDL, a call, updatable results): refused in read-only
     * contexts.
     */
    private boolean writeLike;
    private QueryShapes.Shape shape;
    /** The weight of the execution under way when it is timed, else 0 ({@link #executing()}). */
    private int timing;

    PrimaryStatement(ConnectionRouting routing) {
        this.routing = routing;
    }

    /** Makes this body the statement of {@code delegate}, and returns the handle the application holds. */
    PreparedStatement open(boolean writes, boolean writeLike, PreparedStatement delegate, QueryShapes.Shape shape) {
        open(routing.owner(), delegate, false);
        this.writes = writes;
        this.writeLike = writeLike;
        if (this.shape != shape) {   // a shared value, kept while idle: written only when it changes (a barrier each)
            this.shape = shape;
        }
        return handOut();
    }

    /** Closes the statement; its body waits for the next one while its connection is still open. */
    @Override
    public void close() throws SQLException {
        RoutingConnection by = (RoutingConnection) owner;
        try {
            delegate.close();
        }
        finally {
            forget();
            writes = false;
            writeLike = false;
            timing = 0;
            routing.doors().idle(this, by);
        }
    }

    /**
     * Tells the connection of a write, and returns the time the execution starts when the shape's sample times it
     * ({@link QueryShapes.Shape#timesNext}: the clock is read only then; {@link #timing} is its weight, or 0).
     */
    private long executing() throws SQLException {
        ((RoutingConnection) owner).checkOpen();   // its connection's parts may serve another session by now
        routing.physical().checkPrimaryNotMoved();   // nothing runs where the driver moved the connection
        if (writes || writeLike) {
            routing.writeExecuting(writes, writeLike);
        }
        timing = shape.timesNext();
        return timing != 0 ? routing.nanoTime() : 0;
    }

    /** The execution that began at {@code start} ended: it counts for the statement's shape, with its time if timed. */
    private void executed(long start) {
        if (timing != 0) {
            shape.executed(false, routing.nanoTime() - start, timing);
        }
        else {
            shape.executed(false);
        }
    }

    @Override
    public int executeUpdate() throws SQLException {
        long start = executing();
        int result = delegate.executeUpdate();
        executed(start);
        return result;
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        long start = executing();
        long result = delegate.executeLargeUpdate();
        executed(start);
        return result;
    }

    @Override
    public boolean execute() throws SQLException {
        long start = executing();
        boolean result = delegate.execute();
        executed(start);
        return result;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        long start = executing(); // INSERT ... RETURNING, a function that writes
        ResultSet result = delegate.executeQuery();
        executed(start);
        return results(result);
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long start = executing();
        int[] result = delegate.executeBatch();
        executed(start);
        return result;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        long start = executing();
        long[] result = delegate.executeLargeBatch();
        executed(start);
        return result;
    }
}
