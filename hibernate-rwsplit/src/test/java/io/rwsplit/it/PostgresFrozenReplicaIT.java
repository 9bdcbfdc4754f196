package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * {@link FrozenReplicaContract} on PostgreSQL: {@code pg_sleep(s)} in the FROM clause, the server named by its port;
 * the freeze stops the standby's postmaster and every child process (backends, walreceiver, startup).
 */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresFrozenReplicaIT extends FrozenReplicaContract {

    PostgresFrozenReplicaIT(PostgresCluster cluster) {
        super(cluster);
    }

    @Override
    String slowRead(double seconds) {
        return "select inet_server_port() from pg_sleep(" + seconds + ")";
    }

    @Override
    String label() {
        return "pg-frozen-replica-it";
    }
}
