package io.rwsplit.route;

import static io.rwsplit.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.consistency.ConsistencyToken;

/**
 * A write whose position is unknown (the server has none, or reading it failed as the primary died) is honoured
 * by the time window; while a failover may be under way the replicas' lag figures are frozen, so the window's end
 * proves nothing and such reads stay on the (checked) primary until the monitor sees a writable one again.
 */
class TimeRuleDuringFailoverTest {

    private final Servers servers;

    TimeRuleDuringFailoverTest() throws SQLException {
        servers = new Servers(2, "round_robin", true);
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private String read(SessionRouting session) throws SQLException {
        try (Connection c = servers.open(session)) {
            return who(c);
        }
    }

    @Test
    void aWriteWithoutPositionIsReadOnReplicasOnceItsWindowPassedUnlessAFailoverIsSuspected() throws SQLException {
        SessionRouting session = servers.session(Consistency.readYourWrites());
        session.consistency().committed(ConsistencyToken.withoutPosition(servers.clock.epochMicros()));
        assertEquals("primary", read(session), "within the window");

        servers.clock.advanceMillis(3_000); // past the 2 s window
        servers.router.primaryConnectionFailed();
        assertEquals("primary", read(session), "the window passed while a failover may be under way: not proven");

        servers.clock.advanceMillis(10);
        servers.router.primaryAnswered(true, servers.clock.nanoTime());
        assertEquals("r1", read(session), "a writable primary answers again: the window holds");
    }
}
