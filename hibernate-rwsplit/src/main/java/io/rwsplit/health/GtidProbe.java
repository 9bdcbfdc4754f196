package io.rwsplit.health;

import java.sql.Connection;
import java.sql.SQLException;

import io.rwsplit.consistency.GtidPosition;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * GTID positions: the monitor samples the primary's position every probe interval; a replica's lag is
 * the time since the oldest sampled position its own position does not contain (see {@link Timeline}).
 * Needs no table and no privilege beyond reading system variables; a primary that receives no writes
 * leaves every replica at lag 0.
 */
final class GtidProbe implements LagProbe, PrimaryTask {

    private final GtidReader reader;
    private final Clock clock;
    private final Timeline<GtidPosition> sampled = new Timeline<>(256);

    GtidProbe(GtidReader reader, Clock clock) {
        this.reader = reader;
        this.clock = clock;
    }

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        GtidPosition position = reader.replica(connection);
        if (position == null) {
            throw new SQLException("hibernate-rwsplit: replica '" + replica + "' reports no GTID position: the gtid lag"
                    + " probe needs MariaDB or MySQL with GTIDs");
        }
        return LagSample.of(sampled.lagMicros(position::contains, clock.epochMicros()));
    }

    @Override
    public void run(Connection primary) throws SQLException {
        long now = clock.epochMicros();
        GtidPosition position = reader.primary(primary);
        HeartbeatProbe.commit(primary);
        if (position != null) {
            sampled.add(position, now);
        }
    }

    @Override
    public String toString() {
        return "gtid";
    }
}
