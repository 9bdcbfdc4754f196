package io.rwsplit.spring;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.spi.Clock;

/**
 * The value of the consistency cookie: the client's consistency scope id and the token of its last write,
 * with an expiry time, signed with HMAC-SHA256 so that a client can neither forge a scope nor a token.
 * Format: {@code base64url(scope '\n' token '\n' expiresEpochSeconds) '.' base64url(hmac)}. Immutable and
 * thread-safe.
 */
final class ConsistencyCookie {

    /** A verified cookie: the scope id and the token (either may be {@code null}). */
    record Value(String scope, ConsistencyToken token) {
    }

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final Duration maxAge;
    private final Clock clock;

    ConsistencyCookie(byte[] secret, Duration maxAge, Clock clock) {
        this.key = new SecretKeySpec(secret, "HmacSHA256");
        this.maxAge = maxAge;
        this.clock = clock;
    }

    /** A random key, for an application that configured none (its cookies are honoured by this JVM only). */
    static byte[] randomSecret() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return secret;
    }

    /** A new random scope id. */
    static String newScope() {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return ENCODER.encodeToString(id);
    }

    Duration maxAge() {
        return maxAge;
    }

    String encode(String scope, ConsistencyToken token) {
        long expires = clock.epochMicros() / 1_000_000 + maxAge.toSeconds();
        String plain = scope + "\n" + (token == null ? "" : token.encode()) + "\n" + expires;
        String payload = ENCODER.encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
        return payload + "." + ENCODER.encodeToString(sign(payload));
    }

    /** The cookie's content, or {@code null} when it is malformed, forged or expired. */
    Value decode(String cookie) {
        if (cookie == null || cookie.length() > 4096) {
            return null;
        }
        int dot = cookie.lastIndexOf('.');
        if (dot <= 0) {
            return null;
        }
        String payload = cookie.substring(0, dot);
        try {
            byte[] signature = DECODER.decode(cookie.substring(dot + 1));
            if (!MessageDigest.isEqual(signature, sign(payload))) {
                return null;
            }
            String[] parts = new String(DECODER.decode(payload), StandardCharsets.US_ASCII).split("\n", -1);
            if (parts.length != 3 || parts[0].isEmpty()) {
                return null;
            }
            if (Long.parseLong(parts[2]) < clock.epochMicros() / 1_000_000) {
                return null;
            }
            return new Value(parts[0], parts[1].isEmpty() ? null : ConsistencyToken.decode(parts[1]));
        }
        catch (IllegalArgumentException e) {
            return null;
        }
    }

    private byte[] sign(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
