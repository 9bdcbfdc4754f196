package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/** {@link FailoverContract} on MariaDB, the primary URL {@code jdbc:mariadb:sequential://primary,replica1/rwsplit}. */
@ReplicatedCluster
class FailoverIT extends FailoverContract {

    FailoverIT(MariaDbCluster cluster) {
        super(cluster);
    }

    @Override
    String primaryUrl() {
        return "jdbc:mariadb:sequential://127.0.0.1:" + cluster.port(TestCluster.PRIMARY) + ",127.0.0.1:"
                + cluster.port(TestCluster.replica(1)) + "/" + cluster.database();
    }

    @Override
    Class<? extends FailoverRow> rowClass() {
        return MariaDbFailoverRow.class;
    }

    @Override
    Supplier<? extends FailoverRow> newRow() {
        return MariaDbFailoverRow::new;
    }

    @Override
    String serverQuery() {
        return "select @@port, @@read_only, count(*) from failover_row";
    }
}
