package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;

/**
 * Switching autocommit back on commits the open transaction. When the primary connection throws at that moment, the
 * write may have committed: like a failed commit, it still counts for read-your-writes (reading one's own write
 * from the primary is safe, missing it is not).
 */
class FailedAutocommitSwitchTest {

    private final Servers servers = new Servers(1, "round_robin", true);

    FailedAutocommitSwitchTest() throws SQLException {
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    @Test
    void aWriteWhoseSwitchBackToAutocommitFailedStillCountsForReadYourWrites() throws SQLException {
        SessionRouting session = servers.session(Consistency.readYourWrites());
        try (Connection c = servers.open(session)) {
            c.setAutoCommit(false);
            try (var insert = c.prepareStatement("insert into item (label) values ('x')")) {
                insert.executeUpdate();
            }
            assertNull(session.consistency().lastWrite(), "nothing committed yet");
            servers.primary.handedOut.get(0).close();   // the primary connection breaks before the switch
            assertThrows(SQLException.class, () -> c.setAutoCommit(true));
            assertNotNull(session.consistency().lastWrite(), "the write is recorded: it may have committed");
        }
    }
}
