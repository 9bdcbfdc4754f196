package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

@ReplicatedCluster(Database.POSTGRESQL)
class PostgresLagClearingIT extends LagClearingContract {

    PostgresLagClearingIT(PostgresCluster cluster) {
        super(cluster);
    }
}
