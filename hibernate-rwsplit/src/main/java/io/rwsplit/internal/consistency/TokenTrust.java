package io.rwsplit.internal.consistency;

import java.time.Duration;
import java.util.function.Supplier;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.spi.Clock;
import io.rwsplit.web.Signing;

/**
 * Consistency tokens as the unit hands them out and reads them back ({@code RwSplit.token}, {@code requireToken}).
 * A token handed out is signed: {@code v2.} followed by the unsigned form and its HMAC ({@link Signing}, the key of
 * {@code token_secret}, else a random one). A token read back is trusted when its signature is this key's; one signed
 * with another key, or altered, is {@link ConsistencyToken#untrusted}. The unsigned form of earlier releases
 * ({@code v1.}) is still read, and trusted only when it is plausible: its commit time is not in the future (beyond
 * {@link #CLOCK_SKEW}), not older than the store keeps a scope's write, and its position, if any, is within what the
 * cluster has reported. An untrusted token sends its reads to the primary; it never waits on a replica, so it records
 * no lag there. Immutable and thread-safe.
 */
final class TokenTrust {

    /** How far instances' clocks may disagree: a commit time up to this far ahead of ours is not from the future. */
    static final Duration CLOCK_SKEW = Duration.ofSeconds(5);

    private static final String SIGNED = "v2.";

    private final Signing signing;
    private final Clock clock;
    private final long maxAgeMicros;
    private final Supplier<GtidPosition> reported;

    /**
     * @param secret   the key (null: a random one per JVM)
     * @param maxAge   the store's time-to-live: an unsigned token older than this is not trusted
     * @param reported the furthest position the cluster has reported (null: none yet)
     */
    TokenTrust(byte[] secret, Clock clock, Duration maxAge, Supplier<GtidPosition> reported) {
        this.signing = secret == null ? Signing.random() : new Signing(secret);
        this.clock = clock;
        this.maxAgeMicros = maxAge.toNanos() / 1_000;
        this.reported = reported;
    }

    /** The signed text of {@code token}. */
    String sign(ConsistencyToken token) {
        return SIGNED + signing.sign(token.encode());
    }

    /**
     * The token {@code text} stands for, or an untrusted one.
     *
     * @throws IllegalArgumentException naming the token when it is no token at all
     */
    ConsistencyToken read(String text) {
        long now = clock.epochMicros();
        if (text.startsWith(SIGNED)) {
            String payload = signing.verified(text.substring(SIGNED.length()));
            if (payload == null) {
                ConsistencyToken.decode(text.substring(SIGNED.length(), Math.max(SIGNED.length(), text.lastIndexOf('.'))));
                return ConsistencyToken.untrusted(now);   // well formed, signed with another key or altered
            }
            return ConsistencyToken.decode(payload);
        }
        ConsistencyToken unsigned = ConsistencyToken.decode(text);
        return plausible(unsigned, now) ? unsigned : ConsistencyToken.untrusted(now);
    }

    private boolean plausible(ConsistencyToken token, long now) {
        long time = token.commitTimeMicros();
        if (time > now + CLOCK_SKEW.toNanos() / 1_000 || now - time > maxAgeMicros) {
            return false;
        }
        GtidPosition position = token.positionOrNull();
        if (position == null) {
            return true;
        }
        GtidPosition known = reported.get();
        try {
            return known != null && known.contains(position);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return false;
        }
    }
}
