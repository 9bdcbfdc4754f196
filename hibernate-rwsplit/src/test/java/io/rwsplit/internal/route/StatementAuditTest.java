package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.testing.H2Server;

/**
 * The stale-read audit of reads through every statement door, above all {@code createStatement()} (what
 * {@code Session#doWork} and native libraries use): a sampled replica read is checked once, on the replica connection
 * that served it, once its results are closed (its result set closed, the statement's next execution, its close),
 * never while they are still open. The replicas here pass for PostgreSQL standbys that answer
 * {@code pg_last_wal_replay_lsn()}; the primary does not, so an audit that ran anywhere but on a replica would count the
 * read as not audited.
 */
class StatementAuditTest {

    private static final String READ = "select name from who";

    private final Servers servers;

    StatementAuditTest() throws SQLException {
        servers = new Servers(1, "round_robin", null, 1);
        for (H2Server replica : servers.replicas) {
            replica.execute("create alias pg_last_wal_replay_lsn as 'String lsn() { return \"0/10\"; }'");
            replica.productName = "PostgreSQL";
        }
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private long audited() {
        return servers.router.audit().auditedReads();
    }

    private long unaudited() {
        return servers.router.audit().unauditedReads();
    }

    @Test
    void aStatementReadIsAuditedOnceItsResultSetClosesAndNotBefore() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            ResultSet rs = s.executeQuery(READ);
            assertTrue(rs.next());
            assertEquals("r1", rs.getString(1));
            assertEquals(0, audited(), "its result set is still open");
            rs.close();
            assertEquals(1, audited());
        }
        assertEquals(1, audited(), "once only: closing the statement does not audit it again");
        assertEquals(0, unaudited(), "checked on the replica connection that served it");
    }

    @Test
    void aStatementReusedForTheNextQueryAuditsTheEarlierReadThenAndTheLastAtClose() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            ResultSet first = s.executeQuery(READ);
            assertTrue(first.next());
            assertEquals(0, audited());
            ResultSet second = s.executeQuery(READ);   // closes the first
            assertEquals(1, audited(), "the first read, now that its results are closed");
            first.close();
            assertEquals(1, audited(), "closing the earlier result set again does not audit the read still open");
            assertTrue(second.next());
            assertEquals(1, audited());
        }
        assertEquals(2, audited(), "the last read, at the statement's close");
        assertEquals(0, unaudited());
    }

    @Test
    void executeWithAResultSetIsAuditedWhenItsResultsAreDoneOrAtClose() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            assertTrue(s.execute(READ));
            ResultSet rs = s.getResultSet();
            assertTrue(rs.next());
            assertEquals(0, audited(), "its result set is still open");
            assertFalse(s.getMoreResults());
            assertEquals(1, audited(), "getMoreResults closed its only result set");

            assertTrue(s.execute(READ));
            assertTrue(s.getResultSet().next());
            assertFalse(s.getMoreResults(Statement.KEEP_CURRENT_RESULT));
            assertEquals(1, audited(), "the result set it keeps is still open");
        }
        assertEquals(2, audited());
        assertEquals(0, unaudited());
    }

    @Test
    void aStatementThatWritesBetweenReadsAuditsOnlyItsReplicaReads() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            s.executeQuery(READ).close();
            assertEquals(1, s.executeUpdate("insert into item (label) values ('a')"));
            try (ResultSet rs = s.executeQuery(READ)) {
                assertTrue(rs.next());
            }
        }
        assertEquals(2, audited(), "two replica reads; the write on the primary is not a read");
        assertEquals(0, unaudited());
    }

    @Test
    void aPreparedReadIsAuditedOnceItsResultSetCloses() throws SQLException {
        try (Connection c = servers.open(); PreparedStatement ps = c.prepareStatement(READ)) {
            ResultSet rs = ps.executeQuery();
            assertTrue(rs.next());
            assertEquals(0, audited());
            rs.close();
            assertEquals(1, audited());
            ps.executeQuery().close();
            assertEquals(2, audited());
        }
        assertEquals(2, audited());
        assertEquals(0, unaudited());
    }

    @Test
    void statementReadsCountForTheirQueryShapeWithTheirExecutions() throws SQLException {
        try (Connection c = servers.open(); Statement s = c.createStatement()) {
            for (int i = 0; i < 3; i++) {
                s.executeQuery(READ).close();
            }
            s.execute(READ);
        }
        QueryShapeStatistics shape = servers.router.statistics().queryShapes().stream()
                .filter(q -> q.sql().startsWith("select name from who")).findFirst().orElseThrow();
        assertEquals(4, shape.statements());
        assertEquals(4, shape.replicaStatements());
        assertEquals(4, shape.replicaExecutions());
        assertEquals(4, shape.auditedReads());
    }

    @Test
    void readsTheAuditDoesNotSampleHoldNoSample() throws Exception {
        try (Servers none = new Servers(1, "round_robin", null, 0)) {
            try (Connection c = none.open(); Statement s = c.createStatement()) {
                ResultSet rs = s.executeQuery(READ);
                assertTrue(rs.next());
                java.lang.reflect.Field body = StatementHandle.class.getDeclaredField("target");
                body.setAccessible(true);
                java.lang.reflect.Field audit = RoutedStatement.class.getDeclaredField("audit");
                audit.setAccessible(true);
                assertNull(audit.get(body.get(s)), "no sample is made for a read that is not sampled");
            }
            assertEquals(0, none.router.audit().auditedReads() + none.router.audit().unauditedReads());
        }
    }
}
