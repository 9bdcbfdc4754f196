package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.internal.config.ShapeRule;

/**
 * Where a read goes when its server breaks under it, after the routing that sent it there: a read a rule by query
 * shape sends to the primary, or gives a level, keeps the rule while it waits for the primary's failover; a read that
 * any replica may serve looks for one again when its replica breaks, also one back in rotation since an earlier
 * statement of the connection found none.
 */
class FailoverLooksAgainTest {

    private final Servers servers;

    FailoverLooksAgainTest() throws SQLException {
        servers = new Servers(2, "round_robin");
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private String read() throws SQLException {
        try (Connection c = servers.open()) {
            return who(c);
        }
    }

    private Map<String, Long> reasons() {
        return servers.router.statistics().byReason();
    }

    private void rule(Consistency level) {
        servers.router.useRules(List.of(new ShapeRule("who", ShapeRule.Match.PREFIX, "select name from who", level)));
    }

    @Test
    void aReadARuleSendsToThePrimaryIsServedByThePrimaryAgainWhenItsConnectionBreaks() throws SQLException {
        rule(null);
        assertEquals("primary", read());
        servers.primary.failNextExecutions.set(1);
        assertEquals("primary", read(), "never moved to a replica while the primary fails over");
        assertEquals(1L, reasons().get("RETRY_PRIMARY"));
        assertNull(reasons().get("RETRY_REPLICA"));
    }

    @Test
    void aReadARuleGivesAStrongLevelKeepsItWhileItWaitsForThePrimary() throws SQLException {
        rule(Consistency.strong());
        assertEquals("primary", read());
        servers.primary.failNextExecutions.set(1);
        assertEquals("primary", read(), "the rule's level, not the session's, while it waits");
        assertNull(reasons().get("RETRY_REPLICA"));
    }

    @Test
    void aReadWhoseReplicaBreaksLooksForAReplicaBackSinceAnotherStatementFoundNone() throws SQLException {
        try (Connection c = servers.open();
             PreparedStatement first = c.prepareStatement("select name from who where id = ?");
             PreparedStatement second = c.prepareStatement("select name from who where id = ?")) {
            assertEquals("r1", servers.router.replicas().nodes().get(0).name());
            first.setInt(1, 1);
            second.setInt(1, 1);
            servers.down(1);
            servers.replicas.get(0).failNextExecutions.set(2);   // r1, where both were prepared, dies under both
            assertEquals("primary", name(first), "no replica left for the first");
            servers.up(1);
            assertEquals("r2", name(second), "r2 is back in rotation for the second");
        }
        assertEquals(2, servers.replicas.get(0).failedExecutions.get(), "both ran on r1 first");
        assertEquals(1L, reasons().get("RETRY_PRIMARY"));
        assertEquals(1L, reasons().get("RETRY_REPLICA"));
    }

    @Test
    void aReadWhoseReplicaBreaksLooksInTheTierOfItsOwnRuleNotOfTheStatementRoutedLast() throws SQLException {
        try (Servers tiered = Servers.tiered(1, 1, 2, 2)) {
            tiered.router.useRules(List.of(new ShapeRule("report", ShapeRule.Match.PREFIX, "select name from other.who",
                    null, 2)));
            try (Connection c = tiered.open();
                 PreparedStatement report = c.prepareStatement("select name from other.who where id = ?");
                 PreparedStatement plain = c.prepareStatement("select name from who where id = ?")) {
                report.setInt(1, 1);
                plain.setInt(1, 1);
                tiered.replicas.get(2).failNextExecutions.set(1);   // r3, where the rule prepared both, dies under the report
                assertEquals("r4/other", name(report), "another replica of the report's tier, not the last read's");
                assertEquals("r4", name(plain), "the replica connection is on r4 now");
            }
            assertEquals(1, tiered.replicas.get(2).failedExecutions.get(), "the report ran on r3 first");
        }
    }

    @Test
    void aReadWaitingForThePrimarysFailoverLooksInItsOwnTierNotTheStatementRoutedLast() throws SQLException {
        try (Servers tiered = Servers.tiered(1, 2)) {
            tiered.router.useRules(List.of(new ShapeRule("report", ShapeRule.Match.PREFIX, "select name from other.who",
                    null, 2)));
            tiered.down(0);
            tiered.down(1);   // both are prepared on the primary; the report leaves its tier behind
            try (Connection c = tiered.open();
                 PreparedStatement plain = c.prepareStatement("select name from who where id = ?");
                 PreparedStatement report = c.prepareStatement("select name from other.who where id = ?")) {
                plain.setInt(1, 1);
                tiered.up(0);
                tiered.up(1);
                tiered.primary.failNextExecutions.set(1);   // the primary's connection dies under the plain read
                assertEquals("r1", name(plain), "the best tier, as a read without a rule is served");
            }
        }
    }

    @Test
    void aPreparedReadExecutedBeforeRunsAgainOnAnotherReplicaWithItsNewParametersWhenItsReplicaBreaks()
            throws SQLException {
        try (Connection c = servers.open();
             PreparedStatement ps = c.prepareStatement("select name from who where id = ?")) {
            ps.setInt(1, 1);
            assertEquals("r1", name(ps));
            ps.setInt(1, 2);
            assertEquals(null, name(ps), "no row 2");
            ps.setInt(1, 1);
            servers.replicas.get(0).failNextExecutions.set(1);   // r1 dies under the third execution
            assertEquals("r2", name(ps), "run again on r2 with the parameter of the execution that failed");
        }
        assertEquals(1L, reasons().get("RETRY_REPLICA"));
    }

    private static String name(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
