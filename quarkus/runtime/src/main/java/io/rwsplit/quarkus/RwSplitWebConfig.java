package io.rwsplit.quarkus;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The request scope of Quarkus REST requests (with {@code quarkus-rest} and {@code quarkus.rwsplit.replicas}): each
 * request reads under the scope of its HTTP session, else of its authenticated user, else of its signed consistency
 * cookie; a request that wrote gets the cookie, carrying the token of its writes.
 */
@ConfigMapping(prefix = "quarkus.rwsplit.web")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface RwSplitWebConfig {

    /** The property of the cookie's key, named in messages. */
    String SECRET_PROPERTY = "quarkus.rwsplit.web.cookie.secret";

    /** Whether Quarkus REST requests get a consistency scope (and the cookie, when it is enabled). */
    @WithDefault("true")
    boolean enabled();

    /** Whether POST, PUT, PATCH and DELETE requests run every statement on the primary, reads included. */
    @WithDefault("true")
    boolean primaryForUnsafeMethods();

    /** The signed consistency cookie. */
    Cookie cookie();

    /** The signed consistency cookie. */
    interface Cookie {

        /** Whether a request that wrote sets the cookie, and a request that brings it reads what it stands for. */
        @WithDefault("true")
        boolean enabled();

        /** The cookie's name. */
        @WithDefault("RWSPLIT")
        String name();

        /**
         * The key that signs the cookie (HMAC-SHA256), at least 32 characters, the same on every instance of the
         * application so that a cookie set by one is honoured by the others. Also the core's
         * {@code hibernate.rwsplit.token_secret}. Default: a random key per JVM (a cookie of another instance then
         * sends its request's reads to the primary).
         */
        Optional<String> secret();

        /** How long the cookie lives: at least as long as the worst replication lag you tolerate. */
        @WithDefault("5M")
        Duration maxAge();

        /** The cookie's path. */
        @WithDefault("/")
        String path();

        /** Whether the cookie is marked {@code Secure}. Default: when the request came over HTTPS. */
        Optional<Boolean> secure();

        /** The cookie's {@code SameSite} attribute. */
        @WithDefault("lax")
        SameSite sameSite();
    }

    /** Values of {@link Cookie#sameSite()}. */
    enum SameSite {
        STRICT("Strict"), LAX("Lax"), NONE("None");

        private final String attribute;

        SameSite(String attribute) {
            this.attribute = attribute;
        }

        /** The attribute's value as it is written in {@code Set-Cookie}. */
        public String attribute() {
            return attribute;
        }
    }
}
