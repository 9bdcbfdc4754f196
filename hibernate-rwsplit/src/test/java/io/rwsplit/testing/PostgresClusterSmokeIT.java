package io.rwsplit.testing;

import static io.rwsplit.testing.TestCluster.PRIMARY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** {@link ClusterContract} on PostgreSQL, plus what tells the primary from a hot standby. */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresClusterSmokeIT extends ClusterContract {

    /** read_only_sql_transaction: a write in a read-only transaction, as on a hot standby. */
    private static final String READ_ONLY_SQL_STATE = "25006";

    PostgresClusterSmokeIT(PostgresCluster cluster) {
        super(cluster);
    }

    @Override
    void assertReadOnlyRefusal(SQLException refused) {
        assertEquals(READ_ONLY_SQL_STATE, refused.getSQLState(), refused.getMessage());
    }

    @Test
    void everyNodeIsIdentifiedByItsPortAndOnlyTheStandbysAreInRecovery() throws SQLException {
        for (String node : cluster.nodes()) {
            assertEquals(cluster.port(node), cluster.serverIdentity(node), node);
            assertEquals(node.equals(PRIMARY) ? 0 : 1,
                    cluster.queryInt(node, "select case when pg_is_in_recovery() then 1 else 0 end"), node);
        }
    }
}
