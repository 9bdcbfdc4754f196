package io.rwsplit.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.FakeClock;

class ConsistencyCookieTest {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

    private final FakeClock clock = new FakeClock();
    private final ConsistencyCookie cookies = new ConsistencyCookie(new Signing(SECRET), Duration.ofMinutes(5), clock);
    private final ConsistencyToken token = ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-42"), clock.epochMicros());

    @Test
    void decodesWhatItEncoded() {
        ConsistencyCookie.Decoded value = cookies.decode(cookies.encode("scope1", token));
        assertEquals(ConsistencyCookie.Status.VALID, value.status());
        assertEquals("scope1", value.scope());
        assertEquals(token, value.token());
    }

    @Test
    void aCookieSignedWithAnotherSecretIsUnverifiedAndCarriesAnUntrustedRequirement() {
        ConsistencyCookie other = new ConsistencyCookie(Signing.random(), Duration.ofMinutes(5), clock);
        ConsistencyCookie.Decoded value = cookies.decode(other.encode("scope1", token));
        assertEquals(ConsistencyCookie.Status.UNVERIFIED, value.status());
        assertNull(value.scope(), "its scope is not taken");
        assertFalse(value.token().trusted(), "the write it stood for is unknown: the request reads from the primary");
        assertEquals(clock.epochMicros(), value.token().commitTimeMicros());
    }

    @Test
    void aTamperedPayloadIsUnverified() {
        String good = cookies.encode("scope1", token);
        String forged = cookies.encode("scope2", token);
        assertEquals(ConsistencyCookie.Status.UNVERIFIED,
                cookies.decode(forged.substring(0, forged.indexOf('.')) + good.substring(good.indexOf('.'))).status());
    }

    @Test
    void anExpiredCookieCarriesNothing() {
        String value = cookies.encode("scope1", token);
        clock.advanceMillis(Duration.ofMinutes(6).toMillis());
        assertEquals(ConsistencyCookie.Decoded.NONE, cookies.decode(value));
    }

    @Test
    void garbageIsUnverifiedAndNoCookieIsNone() {
        assertEquals(ConsistencyCookie.Status.UNVERIFIED, cookies.decode("not a cookie").status());
        assertEquals(ConsistencyCookie.Status.UNVERIFIED, cookies.decode(".").status());
        assertEquals(ConsistencyCookie.Status.UNVERIFIED, cookies.decode("x".repeat(5000)).status());
        assertEquals(ConsistencyCookie.Status.NONE, cookies.decode(null).status());
    }

    @Test
    void aSecretShorterThan32BytesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Signing(new byte[31]));
    }
}
