package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FastRestartContract} on MariaDB. */
@ReplicatedCluster
class FastRestartIT extends FastRestartContract {

    FastRestartIT(MariaDbCluster cluster) {
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
}
