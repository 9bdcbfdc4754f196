package io.rwsplit.web;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 signatures of short ASCII values (the consistency cookie, signed consistency tokens), in base64url.
 * Immutable and thread-safe.
 */
public final class Signing {

    /** The least secret length accepted, in bytes (256 bits). */
    public static final int MIN_SECRET_BYTES = 32;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** @param secret at least {@link #MIN_SECRET_BYTES} bytes, the same on every instance that must verify */
    public Signing(byte[] secret) {
        if (secret == null || secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("a signing secret needs at least " + MIN_SECRET_BYTES + " bytes, got "
                    + (secret == null ? "none" : secret.length));
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    /** A signer with a random key: what it signs is verified by this JVM only. */
    public static Signing random() {
        byte[] secret = new byte[MIN_SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return new Signing(secret);
    }

    /** A new random id of 16 bytes, base64url (22 characters). */
    public static String randomId() {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return ENCODER.encodeToString(id);
    }

    /** {@code payload + "." + signature}. */
    public String sign(String payload) {
        return payload + "." + ENCODER.encodeToString(mac(payload));
    }

    /**
     * The payload of {@code signed} ({@link #sign}) when its signature is this key's, else null (another key,
     * tampered, malformed).
     */
    public String verified(String signed) {
        int dot = signed == null ? -1 : signed.lastIndexOf('.');
        if (dot <= 0) {
            return null;
        }
        String payload = signed.substring(0, dot);
        try {
            return MessageDigest.isEqual(DECODER.decode(signed.substring(dot + 1)), mac(payload)) ? payload : null;
        }
        catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    static String encode(String plain) {
        return ENCODER.encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    static String decode(String base64) {
        return new String(DECODER.decode(base64), StandardCharsets.US_ASCII);
    }

    private byte[] mac(String payload) {
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
