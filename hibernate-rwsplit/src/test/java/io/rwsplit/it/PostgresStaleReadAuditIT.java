package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link StaleReadAuditContract} on PostgreSQL: positions are LSNs, the standby's {@code pg_last_wal_replay_lsn()}. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresStaleReadAuditIT extends StaleReadAuditContract {

    PostgresStaleReadAuditIT(PostgresCluster cluster) {
        super(cluster);
    }

    @Override
    String schema() {
        return "create table profile (id bigint primary key, bio varchar(100))";
    }

    @Override
    String label() {
        return "pg-audit-it";
    }
}
