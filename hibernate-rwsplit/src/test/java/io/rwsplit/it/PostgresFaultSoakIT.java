package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FaultSoakContract} on PostgreSQL. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresFaultSoakIT extends FaultSoakContract {

    PostgresFaultSoakIT(PostgresCluster cluster) {
        super(cluster);
    }
}
