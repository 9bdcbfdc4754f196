package io.rwsplit.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.rwsplit.Intent;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.spi.RoutingIntentSource;

/** {@code quarkus.rwsplit.web.*} as the core's settings, and the request's intent after the annotations'. */
class WebSettingsTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    @Test
    void theCookieSecretIsTheTokenSecret() {
        Map<String, Object> s = new HashMap<>();
        WebSettings.addTo(s, web(Optional.of(SECRET), Duration.ofMinutes(5)), null);
        assertEquals(Map.of(RwSplitSettings.TOKEN_SECRET, SECRET), s);
    }

    @Test
    void aShortSecretFailsStartupNamingTheProperty() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> WebSettings.addTo(new HashMap<>(), web(Optional.of("short"), Duration.ofMinutes(5)), null));
        assertTrue(e.getMessage().contains("quarkus.rwsplit.web.cookie.secret"), e.getMessage());
    }

    @Test
    void aMaxAgeThatIsNotPositiveFailsStartupNamingTheProperty() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> WebSettings.addTo(new HashMap<>(), web(Optional.empty(), Duration.ZERO), null));
        assertTrue(e.getMessage().contains("quarkus.rwsplit.web.cookie.max-age"), e.getMessage());
    }

    @Test
    void withQuarkusRestTheRequestsAreScopeResolverAndIntentSource() {
        RestRequests requests = new RestRequests();
        Map<String, Object> s = new HashMap<>();
        WebSettings.addTo(s, web(Optional.empty(), Duration.ofMinutes(5)), requests);
        assertSame(requests, s.get(RwSplitSettings.SCOPE_RESOLVER));
        assertSame(requests, s.get(RwSplitSettings.INTENT_SOURCE));
        assertFalse(s.containsKey(RwSplitSettings.TOKEN_SECRET));
        assertNotNull(requests.web(), "the request scope is on");
    }

    @Test
    void anAnnotatedCallsIntentWinsOverTheRequestsAndTheRequestsAppliesOtherwise() {
        RestRequests requests = new RestRequests();
        Intent[] annotated = {Intent.REPLICA};
        Map<String, Object> s = new HashMap<>();
        s.put(RwSplitSettings.INTENT_SOURCE, (RoutingIntentSource) () -> annotated[0]);
        WebSettings.addTo(s, web(Optional.empty(), Duration.ofMinutes(5)), requests);
        RoutingIntentSource intents = (RoutingIntentSource) s.get(RwSplitSettings.INTENT_SOURCE);

        RequestConsistency post = new RequestConsistency(null, null, Intent.PRIMARY);
        requests.begin(post);
        try {
            assertEquals(Intent.REPLICA, intents.currentIntent());
            annotated[0] = Intent.NONE;
            assertEquals(Intent.PRIMARY, intents.currentIntent());
        }
        finally {
            requests.end(post);
        }
        assertEquals(Intent.NONE, intents.currentIntent());
    }

    private static RwSplitWebConfig web(Optional<String> secret, Duration maxAge) {
        RwSplitWebConfig.Cookie cookie = new RwSplitWebConfig.Cookie() {
            @Override public boolean enabled() { return true; }
            @Override public String name() { return "RWSPLIT"; }
            @Override public Optional<String> secret() { return secret; }
            @Override public Duration maxAge() { return maxAge; }
            @Override public String path() { return "/"; }
            @Override public Optional<Boolean> secure() { return Optional.empty(); }
            @Override public RwSplitWebConfig.SameSite sameSite() { return RwSplitWebConfig.SameSite.LAX; }
        };
        return new RwSplitWebConfig() {
            @Override public boolean enabled() { return true; }
            @Override public boolean primaryForUnsafeMethods() { return true; }
            @Override public Cookie cookie() { return cookie; }
        };
    }
}
