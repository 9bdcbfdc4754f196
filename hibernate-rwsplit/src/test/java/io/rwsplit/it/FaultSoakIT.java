package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FaultSoakContract} on MariaDB. */
@ReplicatedCluster
class FaultSoakIT extends FaultSoakContract {

    FaultSoakIT(MariaDbCluster cluster) {
        super(cluster);
    }
}
