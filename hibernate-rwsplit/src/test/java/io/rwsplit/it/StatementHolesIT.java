package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link StatementHolesContract} on MariaDB. */
@ReplicatedCluster
class StatementHolesIT extends StatementHolesContract {

    StatementHolesIT(MariaDbCluster cluster) {
        super(cluster);
    }
}
