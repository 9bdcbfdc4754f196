package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.health.GtidReader;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * {@link StaleReadAuditContract} on MariaDB: positions are GTIDs, the replica's {@code @@gtid_slave_pos}, or its table
 * {@code mysql.gtid_slave_pos} where the application's user may read it.
 */
@ReplicatedCluster
class StaleReadAuditIT extends StaleReadAuditContract {

    StaleReadAuditIT(MariaDbCluster cluster) {
        super(cluster);
    }

    @Override
    String schema() {
        return "create table profile (id bigint primary key, bio varchar(100))";
    }

    @Override
    String label() {
        return "audit-it";
    }

    /** The application user's accounts, as GRANT names them ('rwsplit'@'127.0.0.1', ...). */
    private String accounts() {
        return String.join(", ", cluster.sql(TestCluster.PRIMARY, "select concat(quote(user), '@', quote(host)) from"
                + " mysql.user where user = '" + cluster.user() + "'").trim().split("\\s*\\n\\s*"));
    }

    private boolean auditReadsTheTable() throws Exception {
        try (Connection c = cluster.connect(TestCluster.replica(1))) {
            return new GtidReader().appliedTable(c);
        }
    }

    @Test
    void whereTheUserMayReadTheGtidTableTheAuditReadsItAndCountsTheOldValueReads() throws Exception {
        assertFalse(auditReadsTheTable(), "the cluster's user has no privilege on mysql.gtid_slave_pos");
        String accounts = accounts();
        cluster.sql(TestCluster.PRIMARY, "grant select on mysql.gtid_slave_pos to " + accounts);
        try {
            cluster.sync();
            assertTrue(auditReadsTheTable(), "granted (replicated to the replicas)");
            try (Connection c = cluster.connect(TestCluster.replica(1))) {
                GtidReader reader = new GtidReader();
                assertEquals(reader.replica(c), reader.visible(c), "the table holds what the variable says, once idle");
            }
            Run r = run("eventual, GTID table", Map.of(RwSplitSettings.CONSISTENCY, "eventual"), 1);
            assertTrue(r.old() > PAIRS / 2, "replicas a second behind: most reads are old (" + r.old() + ")");
            assertEquals(0, r.stats().unauditedReads(), "every read audited from the table");
            assertTrue(r.stats().auditedReads() >= PAIRS);
            assertWithinFivePercent(r.old(), r.stats().staleReadsAgainstUnit(), "stale against the unit");
            assertEquals(0, r.stats().staleReadsAgainstSession());
        }
        finally {
            cluster.sql(TestCluster.PRIMARY, "revoke select on mysql.gtid_slave_pos from " + accounts);
        }
    }
}
