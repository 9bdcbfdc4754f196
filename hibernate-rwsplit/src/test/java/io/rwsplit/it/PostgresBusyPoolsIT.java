package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link BusyPoolsContract} on PostgreSQL: {@code pg_sleep(n)} in the FROM clause, the server named by its port. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresBusyPoolsIT extends BusyPoolsContract {

    PostgresBusyPoolsIT(PostgresCluster cluster) {
        super(cluster);
    }

    @Override
    String slowRead(int seconds) {
        return "select inet_server_port() from pg_sleep(" + seconds + ")";
    }

    @Override
    String sleep(int seconds) {
        return "select 1 from pg_sleep(" + seconds + ")";
    }

    @Override
    String label() {
        return "pg-busy-pools-it";
    }
}
