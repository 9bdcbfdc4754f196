package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a session reaches the connection Hibernate acquires for it: the session puts itself into the router's slot for
 * the thread ({@code jdbcConnectionAcquisitionStart}), the connection provider's {@link Router#open} takes it out, and
 * {@code jdbcConnectionAcquisitionEnd} clears what an acquisition that never reached the provider left behind, so that
 * a later connection of this thread is never given to a session that did not ask for it.
 */
class SessionAcquisitionTest {

    private Servers servers;

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    private SessionRouting newSession() {
        return new SessionRouting(null, null);
    }

    @Test
    void theConnectionOpenedDuringASessionsAcquisitionServesThatSession() throws SQLException {
        servers = new Servers(1, "round_robin");
        SessionRouting session = newSession();
        try (RoutingConnection c = servers.open(session)) {
            assertSame(session, c.session());
        }
    }

    @Test
    void anAcquisitionThatNeverReachedTheProviderLeavesNoSessionForTheThreadsNextConnection() throws SQLException {
        servers = new Servers(1, "round_robin");
        SessionRouting session = newSession();
        Router router = servers.router;
        router.beginAcquisition(session);   // another listener failed before Hibernate asked for the connection
        router.endAcquisition(session);
        try (RoutingConnection c = router.open(false)) {
            assertNotSame(session, c.session(), "a connection outside the session's acquisition served the session");
        }
    }

    @Test
    void anEndingAcquisitionNeverClearsTheSlotOfTheSessionAcquiringAfterIt() throws SQLException {
        servers = new Servers(1, "round_robin");
        Router router = servers.router;
        SessionRouting first = newSession();
        SessionRouting second = newSession();
        router.beginAcquisition(first);
        try (RoutingConnection a = router.open(false)) {
            router.beginAcquisition(second);   // a listener of the first acquisition makes another session acquire
            router.endAcquisition(first);
            try (RoutingConnection b = router.open(false)) {
                router.endAcquisition(second);
                assertSame(first, a.session());
                assertSame(second, b.session());
            }
        }
        try (RoutingConnection c = router.open(false)) {
            assertNotSame(second, c.session());
            assertNotSame(first, c.session());
        }
    }
}
