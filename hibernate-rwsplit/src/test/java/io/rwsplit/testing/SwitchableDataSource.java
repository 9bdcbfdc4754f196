package io.rwsplit.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

/** An H2 data source that can be switched off, as a server that dies or stops answering. */
public final class SwitchableDataSource extends DataSourceAdapter {

    private final String url;
    private final Queue<Connection> handedOut = new ConcurrentLinkedQueue<>();
    private volatile SQLException refusal;

    /** Over a new in-memory database of its own. */
    public SwitchableDataSource() {
        this("jdbc:h2:mem:mon_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }

    /** Over the database at {@code url} (user {@code sa}, no password). */
    public SwitchableDataSource(String url) {
        this.url = url;
    }

    /** Refuses new connections with {@code refusal} and breaks the open ones. */
    public void goDown(SQLException refusal) throws SQLException {
        this.refusal = refusal;
        for (Connection c : handedOut) {
            c.close();
        }
    }

    /** Refuses new connections as a dead server does, and breaks the open ones. */
    public void goDown() throws SQLException {
        goDown(new SQLException("Connection refused", "08001"));
    }

    /** Lends connections again. */
    public void comeBack() {
        refusal = null;
    }

    @Override
    public Connection getConnection() throws SQLException {
        SQLException refused = refusal;
        if (refused != null) {
            throw new SQLException(refused.getMessage(), refused.getSQLState());
        }
        Connection c = DriverManager.getConnection(url, "sa", "");
        handedOut.add(c);
        refused = refusal;
        if (refused != null) {
            // goDown() ran while this connection was being made, perhaps after it closed the open ones: refuse it too
            handedOut.remove(c);
            c.close();
            throw new SQLException(refused.getMessage(), refused.getSQLState());
        }
        return c;
    }
}
