package io.rwsplit.internal.route;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.stats.QueryShapes;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.JdbcFakes;

class ReadAuditTest {

    private final QueryShapes shapes = new QueryShapes(5);
    private final QueryShapes.Shape shape = shapes.shape("s", "select a", null, true);

    /** A MariaDB replica connection whose {@code @@gtid_slave_pos} is {@code applied}; the queries asked go to {@code asked}. */
    private static Connection mariaDbReplica(String applied, List<String> asked) {
        DatabaseMetaData md = fake(DatabaseMetaData.class, (name, args) -> name.equals("getDatabaseProductName") ? "MariaDB" : null);
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> md;
            case "createStatement" -> fake(Statement.class, (sName, sArgs) -> {
                if (sName.equals("executeQuery")) {
                    asked.add((String) sArgs[0]);
                    return JdbcFakes.oneRow(applied);
                }
                return null;
            });
            default -> null;
        });
    }

    private static ConsistencyToken write(String gtid) {
        return ConsistencyToken.of(GtidPosition.parseMariaDb(gtid), 1_000);
    }

    @Test
    void aReplicaThatHadNotAppliedTheUnitsWriteAfterTheReadIsStaleAgainstTheUnitOnly() {
        ReadAudit audit = new ReadAudit(1);
        List<String> asked = new ArrayList<>();
        shape.routed(io.rwsplit.RouteReason.REPLICA_READ);
        audit.check(mariaDbReplica("0-1-9", asked), new ReadAudit.Sample(audit, write("0-1-10"), write("0-1-9")), shape);
        assertEquals("select @@gtid_slave_pos", asked.get(asked.size() - 1), "no readable GTID table here: the variable");
        assertEquals(1, audit.auditedReads());
        assertEquals(1, audit.staleReadsAgainstUnit());
        assertEquals(0, audit.staleReadsAgainstSession(), "what the session required, it had");
        assertEquals(1, shapes.report().get(0).staleAgainstUnit());
    }

    /** The application closed the audited read's result set: the audit checks the read without closing it again. */
    @Test
    void anAuditedReadWhoseResultSetTheApplicationClosedIsNotClosedTwice() {
        ReadAudit audit = new ReadAudit(1);
        List<String> asked = new ArrayList<>();
        Connection replica = mariaDbReplica("0-1-12", asked);
        java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();
        java.sql.ResultSet results = fake(java.sql.ResultSet.class, (name, args) -> {
            if (name.equals("close")) {
                closes.incrementAndGet();
            }
            return null;
        });
        ReadAudit.Sample sample = new ReadAudit.Sample(audit, write("0-1-10"), null)
                .ran(fake(Statement.class, (name, args) -> name.equals("getConnection") ? replica : null), shape);
        sample.handedOut(results);
        closes.incrementAndGet();   // the application's close, as the result set's wrapper passes it on
        assertTrue(sample.endsWith(results));
        sample.resultsClosed();
        assertEquals(1, closes.get(), "closed once");
        assertEquals(1, audit.auditedReads(), "and checked");
    }

    @Test
    void aReplicaThatHadEverythingIsNotStaleAndNothingRequiredIsNotStale() {
        ReadAudit audit = new ReadAudit(1);
        audit.check(mariaDbReplica("0-1-12", new ArrayList<>()), new ReadAudit.Sample(audit, write("0-1-10"), write("0-1-10")), shape);
        audit.check(mariaDbReplica("0-1-1", new ArrayList<>()), new ReadAudit.Sample(audit, null, null), shape);
        assertEquals(2, audit.auditedReads());
        assertEquals(0, audit.staleReadsAgainstUnit());
        assertEquals(0, audit.staleReadsAgainstSession());
    }

    @Test
    void whereNoPositionCanBeReadOrComparedTheReadIsNotAuditedNeverFresh() throws SQLException {
        ReadAudit audit = new ReadAudit(1);
        Connection h2 = fake(Connection.class, (name, args) -> name.equals("getMetaData")
                ? fake(DatabaseMetaData.class, (m, a) -> m.equals("getDatabaseProductName") ? "H2" : null) : null);
        audit.check(h2, new ReadAudit.Sample(audit, write("0-1-10"), null), shape);
        // time mode: a write without a position
        audit.check(mariaDbReplica("0-1-12", new ArrayList<>()),
                new ReadAudit.Sample(audit, ConsistencyToken.withoutPosition(5), null), shape);
        Connection broken = fake(Connection.class, (name, args) -> {
            throw new SQLException("gone", "08006");
        });
        audit.check(broken, new ReadAudit.Sample(audit, write("0-1-10"), null), shape);
        assertEquals(0, audit.auditedReads());
        assertEquals(3, audit.unauditedReads());
        assertEquals(0, audit.staleReadsAgainstUnit());
    }

    @Test
    void oneReadInNIsSampledAndZeroSamplesNone() {
        assertTrue(new ReadAudit(1).sampled());
        assertFalse(new ReadAudit(0).sampled());
        ReadAudit oneIn10 = new ReadAudit(10);
        int sampled = 0;
        for (int i = 0; i < 10_000; i++) {
            sampled += oneIn10.sampled() ? 1 : 0;
        }
        assertTrue(sampled > 700 && sampled < 1_300, "about one in ten: " + sampled);
    }
}
