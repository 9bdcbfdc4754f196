package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.FakeClock;

/**
 * Tokens cannot hurt others: a signed token of this key is taken as it is; one of another key, an altered one, or an
 * unsigned one that is implausible (from the future, older than the store keeps scopes, a position beyond anything
 * the cluster reported) is untrusted, which sends its reads to the primary and never makes a replica wait.
 */
class TokenTrustTest {

    private static final byte[] KEY = "a-token-secret-of-32-characters!".getBytes(StandardCharsets.UTF_8);

    private final FakeClock clock = new FakeClock();
    private final AtomicReference<GtidPosition> reported = new AtomicReference<>(GtidPosition.parseMariaDb("0-1-100"));
    private final TokenTrust trust = new TokenTrust(KEY, clock, Duration.ofMinutes(1), reported::get);

    private ConsistencyToken write(String gtid, long agoMillis) {
        return ConsistencyToken.of(GtidPosition.parseMariaDb(gtid), clock.epochMicros() - agoMillis * 1_000);
    }

    @Test
    void aTokenItSignedIsReadBackAsItWas() {
        ConsistencyToken token = write("0-1-200", 10);   // beyond what was reported: signed, so still trusted
        String text = trust.sign(token);
        assertTrue(text.startsWith("v2."), text);
        assertEquals(token, trust.read(text));
    }

    @Test
    void aTokenSignedWithAnotherKeyIsUntrusted() {
        TokenTrust other = new TokenTrust("another-token-secret-of-32-chars".getBytes(StandardCharsets.UTF_8), clock,
                Duration.ofMinutes(1), reported::get);
        ConsistencyToken read = trust.read(other.sign(write("0-1-50", 10)));
        assertFalse(read.trusted());
        assertEquals(clock.epochMicros(), read.commitTimeMicros());
    }

    @Test
    void anAlteredSignedTokenIsUntrusted() {
        String good = trust.sign(write("0-1-50", 10));
        String forged = trust.sign(write("0-1-99999999", 10));
        String spliced = forged.substring(0, forged.lastIndexOf('.')) + good.substring(good.lastIndexOf('.'));
        assertFalse(trust.read(spliced).trusted());
    }

    @Test
    void aPlausibleUnsignedTokenOfTheEarlierFormatIsStillTrusted() {
        ConsistencyToken token = write("0-1-90", 1_000);
        assertEquals(token, trust.read(token.encode()));
        ConsistencyToken timeOnly = ConsistencyToken.withoutPosition(clock.epochMicros());
        assertEquals(timeOnly, trust.read(timeOnly.encode()));
    }

    @Test
    void anUnsignedTokenFromTheFutureIsUntrusted() {
        ConsistencyToken future = ConsistencyToken.withoutPosition(clock.epochMicros() + Duration.ofDays(3650).toNanos() / 1_000);
        assertFalse(trust.read(future.encode()).trusted());
        ConsistencyToken skewed = ConsistencyToken.withoutPosition(clock.epochMicros() + 1_000_000);
        assertTrue(trust.read(skewed.encode()).trusted(), "a clock one second ahead is no future");
    }

    @Test
    void anUnsignedTokenOlderThanTheStoreKeepsScopesIsUntrusted() {
        assertFalse(trust.read(write("0-1-90", Duration.ofMinutes(2).toMillis()).encode()).trusted());
    }

    @Test
    void anUnsignedTokenWithAPositionBeyondAnythingReportedIsUntrusted() {
        assertFalse(trust.read(write("0-1-99999999999", 10).encode()).trusted());
        reported.set(null);
        assertFalse(trust.read(write("0-1-90", 10).encode()).trusted(), "nothing reported yet: nothing to judge by");
    }

    @Test
    void textThatIsNoTokenIsRefusedNamingIt() {
        assertThrows(IllegalArgumentException.class, () -> trust.read("not a token"));
        assertThrows(IllegalArgumentException.class, () -> trust.read("v2.garbage"));
    }
}
