package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.Supplier;

import jakarta.enterprise.context.control.RequestContextController;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.Intent;

/**
 * The consistency scope an application names in {@link RwSplitRequest} drives READ_YOUR_WRITES across
 * requests: a user who wrote in one request reads from the primary in the next (time mode, window of
 * minutes in the tests); another user, or a request naming no scope, reads from the replica.
 */
@EnableWeld
class RequestScopeTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(Reads.class);

    @Inject
    RwSplitRequest request;

    @Inject
    RwSplitPersistence persistence;

    @Inject
    RequestContextController requests;

    @Inject
    Reads reads;

    @Inject
    EntityManagerFactory emf;

    private <T> T inRequest(String user, Supplier<T> work) {
        requests.activate();
        try {
            if (user != null) {
                request.scopeKey(user);
            }
            return work.get();
        }
        finally {
            requests.deactivate();
        }
    }

    @Test
    void scopeNamedPerRequestDrivesReadYourWritesAcrossRequests() {
        assertEquals("replica-alice", inRequest("alice", () -> reads.name(1)));
        inRequest("alice", () -> {
            reads.rename(2, "alice-wrote-this");
            return null;
        });
        // the next request of the same user reads her write: from the primary
        assertEquals("alice-wrote-this", inRequest("alice", () -> reads.name(2)));
        assertEquals(1, RwSplit.statistics(emf).byReason().getOrDefault(RouteReason.READ_YOUR_WRITES_PRIMARY.name(), 0L));
        // another user is not held back by her write...
        assertEquals("replica-bob", inRequest("bob", () -> reads.name(2)));
        // ...while a request without a scope sees every write of the unit (the default scope)
        assertEquals("alice-wrote-this", inRequest(null, () -> reads.name(2)));
    }

    @Test
    void scopeKeyIsWhatTheCoreResolvesInThatRequestOnly() {
        assertEquals("alice", inRequest("alice", () -> persistence.scopeResolver().resolveScope()));
        assertNull(inRequest(null, () -> persistence.scopeResolver().resolveScope()));
        assertNull(persistence.scopeResolver().resolveScope(), "no request context, no scope");
        assertThrows(IllegalArgumentException.class, () -> inRequest(" ", () -> null));
    }

    @Test
    void interceptedCallOutsideAnyRequestGetsItsOwnRequestContext() {
        // no request context is active here: the interceptor activates one for the call
        assertEquals("primary-alice", reads.nameOnPrimary(1));
        assertEquals(Intent.NONE, persistence.intentSource().currentIntent());
    }
}
