package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.function.Supplier;

import jakarta.enterprise.context.control.RequestContextController;
import jakarta.inject.Inject;

import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

import io.rwsplit.route.Intent;
import io.rwsplit.spi.RoutingIntentSource;

/**
 * The consistency scope key an application names in {@link RwSplitRequest} is what the core sees
 * (through {@link RoutingIntentSource#currentScopeKey()}) for the statements of that request, and only
 * of that request.
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

    private <T> T inRequest(Supplier<T> work) {
        requests.activate();
        try {
            return work.get();
        }
        finally {
            requests.deactivate();
        }
    }

    @Test
    void scopeKeyNamedInOneRequestIsSeenByTheCoreInThatRequestOnly() {
        RoutingIntentSource core = persistence.intentSource();
        String first = inRequest(() -> {
            request.scopeKey("alice");
            reads.nameOnPrimary(1);
            return core.currentScopeKey();
        });
        assertEquals("alice", first);
        assertNull(inRequest(core::currentScopeKey));
        assertEquals("bob", inRequest(() -> {
            request.scopeKey("bob");
            return core.currentScopeKey();
        }));
        assertNull(core.currentScopeKey(), "no request context, no scope");
    }

    @Test
    void interceptedCallOutsideAnyRequestGetsItsOwnRequestContext() {
        // no request context is active here: the interceptor activates one for the call
        assertEquals("primary-alice", reads.nameOnPrimary(1));
        assertEquals(Intent.NONE, persistence.intentSource().currentIntent());
    }

    @Test
    void intentOfTheRequestIsVisibleToTheCoreOnlyDuringTheCall() {
        assertEquals(Intent.NONE, inRequest(() -> persistence.intentSource().currentIntent()));
    }
}
