package io.rwsplit.it;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link StatementHolesContract} on PostgreSQL. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresStatementHolesIT extends StatementHolesContract {

    PostgresStatementHolesIT(PostgresCluster cluster) {
        super(cluster);
    }
}
