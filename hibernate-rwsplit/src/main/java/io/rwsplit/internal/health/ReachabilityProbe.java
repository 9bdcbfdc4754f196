package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.SQLException;

import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/** No lag measurement: only whether the replica answers ({@link Connection#isValid}). Lag is always 0. */
final class ReachabilityProbe implements LagProbe {

    private final int timeoutSeconds;

    ReachabilityProbe(int timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        if (!connection.isValid(timeoutSeconds)) {
            throw new SQLException("hibernate-rwsplit: replica '" + replica + "' did not answer within "
                    + timeoutSeconds + " s", "08006");
        }
        return LagSample.of(0);
    }

    @Override
    public String toString() {
        return "reachability";
    }
}
