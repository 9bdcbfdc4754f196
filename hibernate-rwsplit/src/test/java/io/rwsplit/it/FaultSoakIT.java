package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FaultSoakContract} on MariaDB. */
@ReplicatedCluster
class FaultSoakIT extends FaultSoakContract {

    FaultSoakIT(MariaDbCluster cluster) {
        super(cluster);
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
    String otherConnectionsQuery() {
        return "select count(*) from information_schema.processlist where user = substring_index(current_user(), '@', 1)"
                + " and id <> connection_id()";
    }
}
