package io.rwsplit.internal.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static io.rwsplit.testing.JdbcFakes.oneRow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
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
 * A MariaDB commit whose connection answers no position ({@code @@last_gtid} empty) after the primary gave positions
 * before: MariaDB Connector/J, on a multi-host URL, runs a query outside a transaction again on the next host when the
 * primary died under it, so the capture after a commit can silently ask a replica that never ran the commit. That is
 * told as a broken primary connection (so that reads the primary must serve check the server first), and the write is
 * one a failover may have lost, exactly as when reading its position failed with a connection error.
 */
class CommitWithoutPositionTest {

    private final FakeClock clock = new FakeClock();
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default",
            new ServerEpochs(2));
    private final List<Exception> told = new ArrayList<>();

    /** A MariaDB connection whose {@code select @@last_gtid} answers {@code lastGtid}. */
    private static Connection mariaDb(String lastGtid) {
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> fake(DatabaseMetaData.class, (m, a) -> switch (m) {
                case "getDatabaseProductName" -> "MariaDB";
                case "getDatabaseProductVersion" -> "11.4.2-MariaDB";
                default -> null;
            });
            case "createStatement" -> fake(Statement.class, (s, a) -> switch (s) {
                case "executeQuery" -> {
                    assertEquals("select @@last_gtid", a[0]);
                    yield oneRow(lastGtid);
                }
                default -> null;
            });
            case "getAutoCommit" -> false;
            default -> null;
        });
    }

    @Test
    void aCommitAnsweredWithoutPositionAfterPositionsIsToldAsABrokenPrimaryConnection() {
        ConsistencyToken first = causal.captureAfterCommit(mariaDb("0-1-66"), told::add);
        assertEquals(MariaDbGtidPosition.parse("0-1-66"), first.positionOrNull());
        assertTrue(told.isEmpty());

        ConsistencyToken second = causal.captureAfterCommit(mariaDb(""), told::add);

        assertNull(second.positionOrNull(), "its readers use the time rule");
        assertEquals(1, told.size(), "told: the connection may lead to another server now");
        assertTrue(told.get(0) instanceof java.sql.SQLException sql && ConnectionErrors.isConnectionError(sql),
                () -> "a connection error, which makes reads the primary must serve check the server: " + told.get(0));
        causal.primaryChanged(MariaDbGtidPosition.parse("0-1-66"));
        assertEquals(1, causal.lostWriteFailovers(), "a failover before the primary answered again may have lost it");
    }

    @Test
    void aServerThatNeverGavePositionsIsNotSuspected() {
        ConsistencyToken token = causal.captureAfterCommit(mariaDb(""), told::add);
        assertNull(token.positionOrNull());
        assertTrue(told.isEmpty(), "binary log off: nothing to suspect");
        causal.primaryChanged(MariaDbGtidPosition.parse("0-1-66"));
        assertEquals(0, causal.lostWriteFailovers());
    }
}
