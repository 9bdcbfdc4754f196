package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.spi.Clock;

class ConsistencyCookieTest {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

    private final AtomicLong nanos = new AtomicLong();
    private final Clock clock = new Clock() {
        @Override
        public long nanoTime() {
            return nanos.get();
        }

        @Override
        public long epochMicros() {
            return 1_700_000_000_000_000L + nanos.get() / 1_000;
        }
    };

    private final ConsistencyCookie cookies = new ConsistencyCookie(SECRET, Duration.ofMinutes(5), clock);
    private final ConsistencyToken token = ConsistencyToken.decode("v1." + java.util.Base64.getUrlEncoder().withoutPadding()
            .encodeToString("1700000000000000;M0-1-42".getBytes(StandardCharsets.US_ASCII)));

    @Test
    void decodesWhatItEncoded() {
        ConsistencyCookie.Value value = cookies.decode(cookies.encode("scope1", token));
        assertEquals("scope1", value.scope());
        assertEquals(token, value.token());
    }

    @Test
    void rejectsACookieSignedWithAnotherSecret() {
        ConsistencyCookie other = new ConsistencyCookie("another-secret-another-secret-xx".getBytes(StandardCharsets.UTF_8),
                Duration.ofMinutes(5), clock);
        assertNull(cookies.decode(other.encode("scope1", token)));
    }

    @Test
    void rejectsATamperedPayload() {
        String good = cookies.encode("scope1", token);
        String forged = cookies.encode("scope2", token);
        assertNull(cookies.decode(forged.substring(0, forged.indexOf('.')) + good.substring(good.indexOf('.'))));
    }

    @Test
    void rejectsAnExpiredCookie() {
        String value = cookies.encode("scope1", token);
        nanos.addAndGet(Duration.ofMinutes(6).toNanos());
        assertNull(cookies.decode(value));
    }

    @Test
    void rejectsGarbage() {
        assertNull(cookies.decode("not a cookie"));
        assertNull(cookies.decode("."));
        assertNull(cookies.decode(null));
    }
}
