package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FaultSoakContract} on PostgreSQL. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresFaultSoakIT extends FaultSoakContract {

    PostgresFaultSoakIT(PostgresCluster cluster) {
        super(cluster);
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
    String otherConnectionsQuery() {
        return "select count(*) from pg_stat_activity where usename = current_user and pid <> pg_backend_pid()";
    }
}
