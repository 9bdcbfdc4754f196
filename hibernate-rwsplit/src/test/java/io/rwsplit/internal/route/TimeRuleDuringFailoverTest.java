package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.Servers.who;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.position.ConsistencyToken;

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
        servers.router.primaryAnswered(true, servers.clock.nanoTime(), null, null);
        assertEquals("r1", read(session), "a writable primary answers again: the window holds");
    }

    @Test
    void aCommitWhosePositionCouldNotBeReadOnItsBrokenConnectionMakesPrimaryReadsCheckTheServer() throws SQLException {
        servers.primary.productName = "MariaDB";     // a server with GTIDs: the commit's position is read after it
        SessionRouting session = servers.session(Consistency.readYourWrites());
        try (Connection c = servers.open(session)) {
            c.setAutoCommit(false);
            try (var insert = c.prepareStatement("insert into item (label) values ('x')")) {
                insert.executeUpdate();
            }
            // the connection breaks right after the commit (MariaDB Connector/J then reconnects it to the next host of a
            // sequential URL, a replica that may lack the write)
            servers.primary.failNextExecutions.set(1);
            c.commit();
        }
        assertEquals(true, servers.router.primarySuspect(), "a failover may be under way");
        servers.primary.productName = null;     // H2 again: the check asks the metadata (on MariaDB: @@read_only)
        int checks = servers.primary.readOnlyChecks.get();
        assertEquals("primary", read(session), "the write's time window sends its reads to the primary");
        assertEquals(checks + 1, servers.primary.readOnlyChecks.get(), "which is checked to take writes first");
    }

    @Test
    void aCommitWhosePositionCouldNotBeReadForAnotherReasonSuspectsNothing() {
        servers.router.commitCaptureFailed().accept(new SQLException("Access denied; you need the REPLICATION CLIENT"
                + " privilege", "42000"));
        assertEquals(false, servers.router.primarySuspect());
        servers.router.commitCaptureFailed().accept(new java.sql.SQLTransientConnectionException("(conn=33) Driver has"
                + " reconnect connection after a communications link failure with 127.0.0.1:3307"));
        assertEquals(true, servers.router.primarySuspect());
    }
}
