package io.rwsplit.it;

import java.util.function.Supplier;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link FastRestartContract} on PostgreSQL. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresFastRestartIT extends FastRestartContract {

    PostgresFastRestartIT(PostgresCluster cluster) {
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
}
