package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * {@link FailoverContract} on PostgreSQL, the primary URL
 * {@code jdbc:postgresql://primary,replica1/rwsplit?targetServerType=primary}, with pgjdbc's host status cache off
 * ({@code hostRecheckSeconds=0}): it is kept per JVM, and the next test would otherwise take the server one test
 * promoted for the primary for 10 s.
 */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresFailoverIT extends FailoverContract {

    PostgresFailoverIT(PostgresCluster cluster) {
        super(cluster);
    }

    @Override
    String primaryUrl() {
        return "jdbc:postgresql://127.0.0.1:" + cluster.port(TestCluster.PRIMARY) + ",127.0.0.1:"
                + cluster.port(TestCluster.replica(1)) + "/" + cluster.database() + "?targetServerType=primary&hostRecheckSeconds=0";
    }

    @Override
    Class<? extends FailoverRow> rowClass() {
        return PgFailoverRow.class;
    }

    @Override
    Supplier<? extends FailoverRow> newRow() {
        return PgFailoverRow::new;
    }

    @Override
    String serverQuery() {
        return "select inet_server_port(), pg_is_in_recovery(), count(*) from failover_row";
    }
}
