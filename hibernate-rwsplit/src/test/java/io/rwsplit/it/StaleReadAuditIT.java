package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link StaleReadAuditContract} on MariaDB: positions are GTIDs, the replica's {@code @@gtid_slave_pos}. */
@ReplicatedCluster
class StaleReadAuditIT extends StaleReadAuditContract {

    StaleReadAuditIT(MariaDbCluster cluster) {
        super(cluster);
    }

    @Override
    String schema() {
        return "create table profile (id bigint primary key, bio varchar(100))";
    }

    @Override
    String label() {
        return "audit-it";
    }
}
