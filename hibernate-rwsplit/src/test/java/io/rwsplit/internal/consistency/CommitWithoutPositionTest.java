package io.rwsplit.internal.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static io.rwsplit.testing.JdbcFakes.oneRow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.MariaDbGtidPosition;
import io.rwsplit.testing.FakeClock;

/**
 * The position of a MariaDB commit, read with whether the answering server is read-only. When the primary dies under a
 * connection of a multi-host URL, MariaDB Connector/J re-opens it on the next host, a replica, and runs a query outside
 * a transaction there again without a word: the position query after a commit can be answered by a server that never
 * ran the commit ({@code @@last_gtid} empty there, or, on MySQL, an older {@code gtid_executed}). Such an answer is told
 * as a broken primary connection (the router then makes reads the primary must serve check the server first) and the
 * write is one a failover may have lost; an empty answer from the writable primary (a commit that wrote nothing to the
 * binary log) suspects nothing.
 */
class CommitWithoutPositionTest {

    private final FakeClock clock = new FakeClock();
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default",
            new ServerEpochs(2));
    private final List<Exception> told = new ArrayList<>();

    /** A MariaDB connection whose {@code select @@last_gtid, @@read_only} answers {@code lastGtid} and {@code readOnly}. */
    private static Connection mariaDb(String lastGtid, String readOnly) {
        return mariaDb("select @@last_gtid, @@read_only", lastGtid, readOnly);
    }

    /** A MariaDB connection whose position query {@code sql} answers {@code position} and {@code readOnly}. */
    private static Connection mariaDb(String sql, String position, String readOnly) {
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> fake(DatabaseMetaData.class, (m, a) -> switch (m) {
                case "getDatabaseProductName" -> "MariaDB";
                case "getDatabaseProductVersion" -> "11.4.2-MariaDB";
                default -> null;
            });
            case "createStatement" -> fake(Statement.class, (s, a) -> switch (s) {
                case "executeQuery" -> {
                    assertEquals(sql, a[0]);
                    yield oneRow(position, readOnly);
                }
                default -> null;
            });
            case "getAutoCommit" -> false;
            default -> null;
        });
    }

    @Test
    void aCommitWhosePositionAReadOnlyServerAnswersIsToldAsABrokenPrimaryConnection() {
        ConsistencyToken first = causal.captureAfterCommit(mariaDb("0-1-66", "0"), told::add);
        assertEquals(MariaDbGtidPosition.parse("0-1-66"), first.positionOrNull());
        assertTrue(told.isEmpty());

        ConsistencyToken second = causal.captureAfterCommit(mariaDb("", "1"), told::add);

        assertNull(second.positionOrNull(), "its readers use the time rule");
        assertEquals(1, told.size(), "told: the connection leads to another server now");
        SQLException why = assertInstanceOf(SQLException.class, told.get(0));
        assertTrue(ConnectionErrors.isConnectionError(why), "the router suspects the primary on a connection error: " + why);
        causal.primaryChanged(MariaDbGtidPosition.parse("0-1-66"));
        assertEquals(1, causal.lostWriteFailovers(), "a failover before the primary answered again may have lost it");
    }

    @Test
    void aJtaCommitWhosePositionAReadOnlyServerAnswersIsToldAsABrokenPrimaryConnectionToo() {
        String global = "select @@global.gtid_binlog_pos, @@read_only";
        ConsistencyToken first = causal.captureElsewhere(mariaDb(global, "0-1-66", "0"), told::add);
        assertEquals(MariaDbGtidPosition.parse("0-1-66"), first.positionOrNull());
        assertTrue(told.isEmpty());

        ConsistencyToken second = causal.captureElsewhere(mariaDb(global, "0-1-60", "1"), told::add);

        assertNull(second.positionOrNull(), "a replica's position is not the commit's");
        assertEquals(1, told.size(), "told, so that the router suspects the primary");
        assertTrue(ConnectionErrors.isConnectionError(assertInstanceOf(SQLException.class, told.get(0))));
    }

    @Test
    void aReplicasOwnPositionIsNotTakenForTheCommits() {
        ConsistencyToken token = causal.captureAfterCommit(mariaDb("0-1-60", "1"), told::add);
        assertNull(token.positionOrNull(), "0-1-60 is what the replica applied, not the commit");
        assertEquals(1, told.size());
    }

    @Test
    void aCommitThatWroteNothingToTheBinaryLogSuspectsNothing() {
        causal.captureAfterCommit(mariaDb("0-1-66", "0"), told::add);
        ConsistencyToken token = causal.captureAfterCommit(mariaDb("", "0"), told::add);
        assertNull(token.positionOrNull());
        assertTrue(told.isEmpty(), "the writable primary answered: nothing to suspect");
    }

    @Test
    void aServerThatNeverGavePositionsIsNotSuspected() {
        ConsistencyToken token = causal.captureAfterCommit(mariaDb("", "0"), told::add);
        assertNull(token.positionOrNull());
        assertTrue(told.isEmpty(), "binary log off: nothing to suspect");
        causal.primaryChanged(MariaDbGtidPosition.parse("0-1-66"));
        assertEquals(0, causal.lostWriteFailovers());
    }
}
