package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FastRestartContract} on PostgreSQL. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresFastRestartIT extends FastRestartContract {

    PostgresFastRestartIT(PostgresCluster cluster) {
        super(cluster);
    }
}
