package io.rwsplit.web;

import java.time.Duration;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.spi.Clock;

/**
 * The value of the consistency cookie a web integration (Spring, Quarkus) gives a client: the client's consistency
 * scope id and the token of its last write, with an expiry time, signed ({@link Signing}) so that a client can forge
 * neither. Format: {@code base64url(scope '\n' token '\n' expiresEpochSeconds) '.' base64url(hmac)}. Immutable and
 * thread-safe.
 */
public final class ConsistencyCookie {

    /** What a request's cookie says. */
    public enum Status {
        /** No cookie, or one that expired: the request carries nothing. */
        NONE,
        /** Signed with this key, not expired: its scope and token hold. */
        VALID,
        /**
         * A cookie this key did not sign: another instance's random key (no shared secret configured), tampered, or
         * malformed. Whatever write it stood for is unknown: the request reads from the primary.
         */
        UNVERIFIED
    }

    /**
     * A request's cookie: its status; for a valid one the scope id and the token (null when it carries none); for an
     * unverified one no scope and an {@link ConsistencyToken#untrusted} token, which sends the request's reads to the
     * primary.
     */
    public record Decoded(Status status, String scope, ConsistencyToken token) {

        static final Decoded NONE = new Decoded(Status.NONE, null, null);
    }

    /** The longest cookie value read; a longer one is not verified. */
    private static final int MAX_LENGTH = 4096;

    private final Signing signing;
    private final Duration maxAge;
    private final Clock clock;

    public ConsistencyCookie(Signing signing, Duration maxAge, Clock clock) {
        this.signing = signing;
        this.maxAge = maxAge;
        this.clock = clock;
    }

    /** A new random scope id for a client without a cookie. */
    public static String newScope() {
        return Signing.randomId();
    }

    public Duration maxAge() {
        return maxAge;
    }

    public String encode(String scope, ConsistencyToken token) {
        long expires = clock.epochMicros() / 1_000_000 + maxAge.toSeconds();
        return signing.sign(Signing.encode(scope + "\n" + (token == null ? "" : token.encode()) + "\n" + expires));
    }

    /** What the cookie value {@code cookie} (null: the request has none) says. */
    public Decoded decode(String cookie) {
        if (cookie == null || cookie.isEmpty()) {
            return Decoded.NONE;
        }
        String payload = cookie.length() > MAX_LENGTH ? null : signing.verified(cookie);
        if (payload == null) {
            return unverified();
        }
        try {
            String[] parts = Signing.decode(payload).split("\n", -1);
            if (parts.length != 3 || parts[0].isEmpty()) {
                return unverified();
            }
            if (Long.parseLong(parts[2]) < clock.epochMicros() / 1_000_000) {
                return Decoded.NONE;
            }
            return new Decoded(Status.VALID, parts[0], parts[1].isEmpty() ? null : ConsistencyToken.decode(parts[1]));
        }
        catch (IllegalArgumentException e) {
            return unverified();   // signed by this key yet unreadable: an older format
        }
    }

    private Decoded unverified() {
        return new Decoded(Status.UNVERIFIED, null, ConsistencyToken.untrusted(clock.epochMicros()));
    }
}
