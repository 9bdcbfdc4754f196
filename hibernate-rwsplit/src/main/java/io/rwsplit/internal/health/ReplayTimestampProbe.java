package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * PostgreSQL standbys: {@code now() - pg_last_xact_replay_timestamp()}, the age of the last transaction the
 * standby replayed, measured by the standby's clock against the primary's commit time. That age keeps growing
 * while the primary is idle, so a standby that has replayed everything it received
 * ({@code pg_last_wal_replay_lsn() = pg_last_wal_receive_lsn()}) has lag 0. A server that is not in recovery,
 * or one that has WAL to replay but has replayed no transaction yet, is reported broken. Needs no table and no
 * privilege; resolution: the clocks of the two hosts. Its weak spot: after a long idle period, the first new
 * commit makes the age jump until it is replayed; the {@code lsn} probe has no such spike.
 */
final class ReplayTimestampProbe implements LagProbe {

    private static final String SQL = "select pg_is_in_recovery(),"
            + " pg_last_wal_replay_lsn() is not distinct from pg_last_wal_receive_lsn(),"
            + " (extract(epoch from (now() - pg_last_xact_replay_timestamp())) * 1000000)::bigint";

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(SQL)) {
            if (!rs.next()) {
                throw new SQLException("hibernate-rwsplit: no row from the replay_timestamp probe on '" + replica + "'");
            }
            return sample(rs.getBoolean(1), rs.getBoolean(2), rs.getLong(3), rs.wasNull());
        }
    }

    /** The lag from the probe's three values (the age is ignored when {@code ageIsNull}). */
    static LagSample sample(boolean inRecovery, boolean replayedAllReceived, long ageMicros, boolean ageIsNull) {
        if (!inRecovery) {
            return LagSample.broken("not a standby: pg_is_in_recovery() is false");
        }
        if (replayedAllReceived) {
            return LagSample.of(0);
        }
        if (ageIsNull) {
            return LagSample.broken("replication lag is unknown: WAL is waiting to be replayed and no transaction"
                    + " was replayed yet (pg_last_xact_replay_timestamp() is NULL)");
        }
        return LagSample.of(ageMicros);
    }

    @Override
    public String toString() {
        return "replay_timestamp";
    }
}
