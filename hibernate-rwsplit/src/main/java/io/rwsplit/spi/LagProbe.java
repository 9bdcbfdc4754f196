package io.rwsplit.spi;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Measures how far a replica is behind its primary. Selected by name with
 * {@code hibernate.rwsplit.lag_probe}; the monitor calls it on a dedicated connection to the replica
 * every probe interval, possibly concurrently for different replicas,
 * so implementations are thread-safe.
 */
@FunctionalInterface
public interface LagProbe {

    /**
     * @param replica the replica's configured name
     * @param connection a dedicated connection to that replica, with the probe timeout applied
     * @return the lag, or {@link LagSample#broken(String)} when the replica is reachable but not replicating
     * @throws SQLException when the replica cannot be reached or the probe query fails (counts as a probe failure)
     */
    LagSample measure(String replica, Connection connection) throws SQLException;
}
