package io.rwsplit.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A commit's position on PostgreSQL, read right after the commit, against a scripted connection that records what
 * the capture asked of it: in manual-commit mode the query runs with autocommit on (so the driver begins no
 * transaction for it) and the mode is restored.
 */
class PostgresCommitPositionTest {

    private final List<String> calls = new ArrayList<>();
    private boolean autoCommit;

    private Connection primary() {
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getAutoCommit" -> autoCommit;
            case "setAutoCommit" -> {
                autoCommit = (Boolean) args[0];
                calls.add("setAutoCommit(" + autoCommit + ")");
                yield null;
            }
            case "createStatement" -> fake(Statement.class, (sName, sArgs) -> {
                if (!sName.equals("executeQuery")) {
                    return null;
                }
                calls.add("query with autocommit " + autoCommit);
                return fake(ResultSet.class, (rName, rArgs) -> switch (rName) {
                    case "next" -> true;
                    case "getString" -> (Integer) rArgs[0] == 1 ? "0/16B3748" : "8192";
                    default -> null;
                });
            });
            default -> null;
        });
    }

    @Test
    void afterACommitInManualCommitModeThePositionIsReadWithAutocommitOnAndTheModeRestored() throws Exception {
        autoCommit = false;
        GtidPosition position = GtidFlavour.POSTGRESQL.captureAfterCommit(primary());
        assertEquals(LsnPosition.parse("0/16B3748"), position);
        assertEquals(List.of("setAutoCommit(true)", "query with autocommit true", "setAutoCommit(false)"), calls);
        assertEquals(false, autoCommit);
    }

    @Test
    void inAutocommitModeThePositionIsReadAsItIs() throws Exception {
        autoCommit = true;
        assertEquals(LsnPosition.parse("0/16B3748"), GtidFlavour.POSTGRESQL.captureAfterCommit(primary()));
        assertEquals(List.of("query with autocommit true"), calls);
    }
}
