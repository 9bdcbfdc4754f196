package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FastRestartContract} on MariaDB. */
@ReplicatedCluster
class FastRestartIT extends FastRestartContract {

    FastRestartIT(MariaDbCluster cluster) {
        super(cluster);
    }
}
