package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

@ReplicatedCluster
class LagClearingIT extends LagClearingContract {

    LagClearingIT(MariaDbCluster cluster) {
        super(cluster);
    }
}
