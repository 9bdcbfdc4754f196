package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * {@link FailoverContract} on MariaDB, the primary URL {@code jdbc:mariadb:sequential://primary,replica1/rwsplit}
 * with Connector/J's deny list off ({@code deniedListTimeout=0}): it is kept per JVM, and a host one test killed
 * would otherwise be skipped for 60 s by the next test, which finds it the primary again.
 */
@ReplicatedCluster
class FailoverIT extends FailoverContract {

    FailoverIT(MariaDbCluster cluster) {
        super(cluster);
    }

    @Override
    String primaryUrl() {
        return "jdbc:mariadb:sequential://127.0.0.1:" + cluster.port(TestCluster.PRIMARY) + ",127.0.0.1:"
                + cluster.port(TestCluster.replica(1)) + "/" + cluster.database() + "?deniedListTimeout=0";
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
    boolean driverMovesConnections() {
        return true;
    }

    @Override
    String serverQuery() {
        return "select @@port, @@read_only, count(*) from failover_row";
    }
}
