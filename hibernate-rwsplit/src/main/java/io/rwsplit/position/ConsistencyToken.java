package io.rwsplit.position;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * What a client must see before reading its own writes: the commit time of its last write and,
 * when known, the exact replication position after it. Immutable and compared by value.
 *
 * <p>{@link #encode()} produces an opaque string safe in URLs, headers and cookies;
 * {@link #decode(String)} reverses it exactly. The format is versioned: {@code v1.} followed by
 * the unpadded base64url of {@code <micros>} or {@code <micros>;<flavour><position>}, where the
 * flavour is {@code M} (MariaDB), {@code Y} (MySQL) or {@code P} (PostgreSQL LSN) and the position is its
 * canonical text; a PostgreSQL position whose timeline is known ({@link LsnPosition#timeline()}) is followed by
 * {@code @} and the timeline in decimal.
 */
public final class ConsistencyToken {

    private static final String PREFIX = "v1.";
    private static final char MARIADB = 'M';
    private static final char MYSQL = 'Y';
    private static final char POSTGRESQL = 'P';
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final GtidPosition position; // null when unknown
    private final long commitTimeMicros;
    /** False for a requirement that could not be verified: whatever write it stood for is unknown. */
    private final boolean trusted;

    private ConsistencyToken(GtidPosition position, long commitTimeMicros, boolean trusted) {
        if (commitTimeMicros < 0) {
            throw new IllegalArgumentException("commitTimeMicros must not be negative, was " + commitTimeMicros);
        }
        this.position = position;
        this.commitTimeMicros = commitTimeMicros;
        this.trusted = trusted;
    }

    /** A token for a write committed at {@code commitTimeMicros} (epoch microseconds) reaching {@code position}. */
    public static ConsistencyToken of(GtidPosition position, long commitTimeMicros) {
        return new ConsistencyToken(Objects.requireNonNull(position, "position"), commitTimeMicros, true);
    }

    /** A token for a write committed at {@code commitTimeMicros} (epoch microseconds) whose position is unknown. */
    public static ConsistencyToken withoutPosition(long commitTimeMicros) {
        return new ConsistencyToken(null, commitTimeMicros, true);
    }

    /**
     * A requirement that cannot be trusted, seen at {@code nowMicros}: a cookie another key signed or someone
     * tampered with, a token from the future or beyond anything the cluster has reported. The write it stands for is
     * unknown, so a read that must see it reads from the primary ({@code UNTRUSTED_TOKEN_PRIMARY}); merged with any
     * other token it stays untrusted. Encoded, it is a token without a position committed then.
     */
    public static ConsistencyToken untrusted(long nowMicros) {
        return new ConsistencyToken(null, nowMicros, false);
    }

    /** False for an {@link #untrusted} requirement. */
    public boolean trusted() {
        return trusted;
    }

    /** @return the replication position after the write, if it was known */
    public Optional<GtidPosition> position() {
        return Optional.ofNullable(position);
    }

    /** @return the replication position after the write, or {@code null} (no allocation, for the routing path) */
    public GtidPosition positionOrNull() {
        return position;
    }

    /** @return the commit time of the write in microseconds since the epoch */
    public long commitTimeMicros() {
        return commitTimeMicros;
    }

    /** @return {@code v1.} and unpadded base64url text: only {@code [A-Za-z0-9_.-]} */
    public String encode() {
        String plain = position == null
                ? Long.toString(commitTimeMicros)
                : commitTimeMicros + ";" + flavour(position) + position
                        + (position instanceof LsnPosition l && l.timeline() != 0 ? "@" + l.timeline() : "");
        return PREFIX + ENCODER.encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * @throws IllegalArgumentException naming the token (truncated) when it is not one produced by
     *         {@link #encode()}: wrong prefix, bad base64url, bad time, unknown flavour or bad position
     */
    public static ConsistencyToken decode(String token) {
        Objects.requireNonNull(token, "token");
        if (!token.startsWith(PREFIX)) {
            throw malformed(token, "it does not start with '" + PREFIX + "'", null);
        }
        String plain;
        try {
            plain = new String(DECODER.decode(token.substring(PREFIX.length())), StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException e) {
            throw malformed(token, "it is not base64url", e);
        }
        int separator = plain.indexOf(';');
        long micros = parseMicros(token, separator < 0 ? plain : plain.substring(0, separator));
        if (separator < 0) {
            return withoutPosition(micros);
        }
        if (separator + 1 == plain.length()) {
            throw malformed(token, "the position has no flavour", null);
        }
        char flavour = plain.charAt(separator + 1);
        if (flavour != MARIADB && flavour != MYSQL && flavour != POSTGRESQL) {
            throw malformed(token, "unknown position flavour '" + flavour + "'", null);
        }
        String text = plain.substring(separator + 2);
        GtidPosition parsed;
        try {
            parsed = flavour == MARIADB ? MariaDbGtidPosition.parse(text)
                    : flavour == MYSQL ? MySqlGtidSet.parse(text) : lsn(text);
        } catch (IllegalArgumentException e) {
            throw malformed(token, "its position is invalid: " + e.getMessage(), e);
        }
        return of(parsed, micros);
    }

    /** {@code X/Y}, or {@code X/Y@timeline}. */
    private static LsnPosition lsn(String text) {
        int at = text.indexOf('@');
        if (at < 0) {
            return LsnPosition.parse(text);
        }
        String timeline = text.substring(at + 1);
        if (timeline.isEmpty() || timeline.length() > 10 || !allDigits(timeline)) {
            throw new IllegalArgumentException("its timeline " + GtidText.quote(timeline) + " is not a number");
        }
        return LsnPosition.parse(text.substring(0, at)).onTimeline(Long.parseLong(timeline));
    }

    private static char flavour(GtidPosition position) {
        return position instanceof MariaDbGtidPosition ? MARIADB : position instanceof MySqlGtidSet ? MYSQL : POSTGRESQL;
    }

    private static long parseMicros(String token, String digits) {
        if (digits.startsWith("-")) {
            throw malformed(token, "its commit time is negative", null);
        }
        if (digits.isEmpty() || digits.length() > 19 || !allDigits(digits)) {
            throw malformed(token, "its commit time is not a number of microseconds", null);
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw malformed(token, "its commit time is out of range", e);
        }
    }

    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!GtidText.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException malformed(String token, String reason, Throwable cause) {
        return new IllegalArgumentException("Malformed consistency token " + GtidText.quote(token) + ": " + reason, cause);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConsistencyToken other
                && commitTimeMicros == other.commitTimeMicros
                && trusted == other.trusted
                && Objects.equals(position, other.position);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(commitTimeMicros) + Objects.hashCode(position);
    }

    @Override
    public String toString() {
        return "ConsistencyToken[" + (trusted ? "" : "untrusted, ") + "position=" + (position == null ? "unknown" : "'" + position + "'")
                + ", commitTimeMicros=" + commitTimeMicros + "]";
    }
}
