package io.rwsplit.quarkus;

import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.ConfigProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.web.Signing;
import io.smallrye.config.SmallRyeConfig;

/**
 * {@code quarkus.rwsplit.web.*} as the core's settings: the cookie's key becomes {@code hibernate.rwsplit.token_secret}
 * (tokens are signed like the cookie), and with Quarkus REST the request scope ({@link RestRequests}) becomes the
 * scope resolver and, after the annotated calls, the intent source.
 */
final class WebSettings {

    private static final Logger log = LoggerFactory.getLogger(WebSettings.class);

    private WebSettings() {
    }

    /**
     * Adds the web settings to {@code settings}, the core's settings of a routed unit.
     *
     * @param requests the request scope, or {@code null} without Quarkus REST
     * @throws ConfigurationException naming the property of a bad value
     */
    static void addTo(Map<String, Object> settings, RwSplitWebConfig web, RestRequests requests) {
        web.cookie().secret().ifPresent(secret -> {
            if (secret.length() < Signing.MIN_SECRET_BYTES) {
                throw new ConfigurationException(RwSplitWebConfig.SECRET_PROPERTY + " must be at least "
                        + Signing.MIN_SECRET_BYTES + " characters, got " + secret.length(),
                        Set.of(RwSplitWebConfig.SECRET_PROPERTY));
            }
            settings.put(RwSplitSettings.TOKEN_SECRET, secret);
        });
        if (web.cookie().maxAge().isNegative() || web.cookie().maxAge().isZero()) {
            throw new ConfigurationException("quarkus.rwsplit.web.cookie.max-age must be a positive duration, got "
                    + web.cookie().maxAge(), Set.of("quarkus.rwsplit.web.cookie.max-age"));
        }
        if (requests == null || !web.enabled()) {
            return;
        }
        requests.activate(web);
        settings.put(RwSplitSettings.SCOPE_RESOLVER, requests);
        settings.merge(RwSplitSettings.INTENT_SOURCE, requests,
                (annotations, request) -> new AnnotationsThenRequest((RoutingIntentSource) annotations, requests));
        if (web.cookie().enabled() && web.cookie().secret().isEmpty()) {
            log.info("hibernate-rwsplit: {} is not set; consistency cookies are honoured by this instance only (set the"
                    + " same secret on every instance); a cookie of another instance costs its request a read from the"
                    + " primary", RwSplitWebConfig.SECRET_PROPERTY);
        }
    }

    /** Adds the web settings, with the request scope when Quarkus REST is present. */
    static void addTo(Map<String, Object> settings) {
        RwSplitWebConfig web = ConfigProvider.getConfig().unwrap(SmallRyeConfig.class).getConfigMapping(RwSplitWebConfig.class);
        InstanceHandle<RestRequests> requests = Arc.container().instance(RestRequests.class);
        addTo(settings, web, requests.isAvailable() ? requests.get() : null);
    }
}
