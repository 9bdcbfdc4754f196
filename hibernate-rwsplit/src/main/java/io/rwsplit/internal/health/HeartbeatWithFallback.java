package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * The {@code heartbeat} probe, replaced once (with one WARN) by the {@code gtid} probe, or {@code replica_status}
 * when the primary has no GTIDs, when the application's user may not create or write the heartbeat table: an
 * application user without CREATE privilege still gets measured lag instead of a probe that fails every interval.
 */
final class HeartbeatWithFallback implements LagProbe, PrimaryTask {

    private static final Logger log = LoggerFactory.getLogger(HeartbeatWithFallback.class);

    private final String label;
    private final HeartbeatProbe heartbeat;
    private final String table;
    private final GtidReader gtid;
    private final Clock clock;
    private final java.time.Duration interval;
    private volatile LagProbe current;

    /** @param interval how often the probe writes a beat (or samples the primary's position) */
    HeartbeatWithFallback(String label, String table, GtidReader gtid, Clock clock, java.time.Duration interval) {
        this.label = label;
        this.table = table;
        this.interval = interval;
        this.heartbeat = new HeartbeatProbe(table, clock, interval);
        this.gtid = gtid;
        this.clock = clock;
        this.current = heartbeat;
    }

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        return current.measure(replica, connection);
    }

    @Override
    public void run(Connection primary) throws SQLException {
        LagProbe probe = current;
        if (probe != heartbeat) {
            if (probe instanceof PrimaryTask task) {
                task.run(primary);
            }
            return;
        }
        try {
            heartbeat.run(primary);
        }
        catch (SQLException e) {
            if (!denied(e)) {
                throw e;
            }
            rollbackQuietly(primary);
            LagProbe fallback = gtid.primary(primary) == null ? new ReplicaStatusProbe()
                    : new GtidProbe(gtid, clock, gtid.flavour(primary) == GtidReader.Flavour.POSTGRESQL ? "lsn" : "gtid", interval);
            log.warn("[{}] the heartbeat lag probe may not create or write table {} on the primary ({}); measuring lag"
                    + " with the {} probe instead. To keep the heartbeat, grant the user CREATE, INSERT, UPDATE and DELETE"
                    + " on that table or name one it may write with '{}'; to silence this, set '{}'", label, table,
                    e.getMessage(), fallback, RwSplitSettings.HEARTBEAT_TABLE, RwSplitSettings.LAG_PROBE);
            current = fallback;
            if (fallback instanceof PrimaryTask task) {
                task.run(primary);
            }
        }
    }

    @Override
    public void close(Connection primary) throws SQLException {
        if (current instanceof PrimaryTask task) {
            task.close(primary);
        }
    }

    /** Missing privilege: MySQL/MariaDB 1142 (table), 1044 (database), 1227 (operation); SQLState 42501 elsewhere. */
    static boolean denied(SQLException e) {
        int code = e.getErrorCode();
        return code == 1142 || code == 1044 || code == 1227 || "42501".equals(e.getSQLState());
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        }
        catch (SQLException ignored) {
            // the connection goes back to the pool, which resets it
        }
    }

    @Override
    public String toString() {
        return current == heartbeat ? heartbeat.toString() : current + " (heartbeat table not writable)";
    }
}
