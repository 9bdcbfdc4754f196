package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.SQLException;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * Replication positions: the monitor samples the primary's position every probe interval; a replica's lag
 * is the time since the oldest sampled position its own position does not contain (see {@link Timeline}).
 * As {@code gtid} it compares GTIDs (MariaDB, MySQL); as {@code lsn} it compares a PostgreSQL standby's
 * replayed WAL position with the primary's written one: the bytes it still has to replay tell which samples
 * it misses, and the time since they were written is its lag. Needs no table and no privilege beyond
 * reading positions; a primary that receives no writes leaves every replica at lag 0.
 */
final class GtidProbe implements LagProbe, PrimaryTask {

    private final GtidReader reader;
    private final Clock clock;
    private final Timeline<GtidPosition> sampled;

    private final String name;

    /**
     * @param name     {@code gtid} or {@code lsn}: how the probe is named in logs and errors
     * @param interval how often {@link #run} samples the primary's position
     */
    GtidProbe(GtidReader reader, Clock clock, String name, java.time.Duration interval) {
        this.reader = reader;
        this.clock = clock;
        this.name = name;
        this.sampled = Timeline.every(interval);
    }

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        GtidPosition position = reader.replica(connection);
        if (position == null) {
            throw new SQLException("hibernate-rwsplit: replica '" + replica + "' reports no replication position: the "
                    + name + " lag probe needs MariaDB or MySQL with GTIDs, or a PostgreSQL standby");
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
        return name;
    }
}
