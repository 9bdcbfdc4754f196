package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.rwsplit.web.ConsistencyCookie;

import io.rwsplit.spi.Clock;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Which consistency scope the filter names for a request. A request with no HTTP session, no principal and no
 * consistency cookie names none, so its sessions keep the unit-wide default (they see every write of the unit)
 * instead of a fresh, empty scope: an API client that keeps no cookies still reads its own writes on this
 * instance.
 */
class ConsistencyFilterScopeTest {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

    private final Clock clock = new Clock() {
        @Override
        public long nanoTime() {
            return 0;
        }

        @Override
        public long epochMicros() {
            return 1_700_000_000_000_000L;
        }
    };
    private final ConsistencyCookie cookies = new ConsistencyCookie(new io.rwsplit.web.Signing(SECRET), Duration.ofMinutes(5),
            clock);
    private final RoutingContext context = new RoutingContext();
    private final ConsistencyFilter filter = new ConsistencyFilter(context, new RwSplitProperties.Web(), cookies);

    @Test
    void aRequestWithoutSessionPrincipalOrCookieNamesNoScope() throws Exception {
        assertNull(scopeDuring(request(null)));
    }

    @Test
    void aRequestWithTheCookieReadsUnderTheCookiesScope() throws Exception {
        String value = cookies.encode("abc", null);
        assertEquals("cookie:abc", scopeDuring(request(new Cookie("RWSPLIT", value))));
    }

    @Test
    void aCookieOfAnotherInstancesKeyReadsFromThePrimaryAndIsReplacedByThisInstancesCookie() throws Exception {
        ConsistencyCookie otherInstance = new ConsistencyCookie(io.rwsplit.web.Signing.random(), Duration.ofMinutes(5),
                clock);
        AtomicReference<io.rwsplit.position.ConsistencyToken> required = new AtomicReference<>();
        java.util.List<String> setCookies = new java.util.ArrayList<>();
        FilterChain chain = (req, res) -> required.set(context.resolveRequirement());
        filter.doFilter(request(new Cookie("RWSPLIT", otherInstance.encode("abc", null))), response(setCookies), chain);
        assertNotNull(required.get());
        assertFalse(required.get().trusted(), "the write it stood for is unknown: the request's reads go to the primary");
        assertEquals(1, setCookies.size(), "replaced although the request wrote nothing");
        String replacement = setCookies.get(0).substring("RWSPLIT=".length(), setCookies.get(0).indexOf(';'));
        ConsistencyCookie.Decoded decoded = cookies.decode(replacement);
        assertEquals(ConsistencyCookie.Status.VALID, decoded.status(), "this instance's cookie now");
        assertTrue(decoded.token().trusted());
        assertNull(decoded.token().positionOrNull(), "a time token: reads wait for the replicas to be past this moment");
    }

    private String scopeDuring(HttpServletRequest request) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>("not called");
        FilterChain chain = (req, res) -> seen.set(context.resolveScope());
        filter.doFilter(request, response(), chain);
        return seen.get();
    }

    private static HttpServletRequest request(Cookie cookie) {
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getMethod" -> "GET";
                    case "getCookies" -> cookie == null ? null : new Cookie[] {cookie};
                    case "getDispatcherType" -> jakarta.servlet.DispatcherType.REQUEST;
                    case "getRequestURI" -> "/";
                    case "isSecure", "isAsyncStarted", "isAsyncSupported" -> false;
                    case "getAttribute", "getSession", "getUserPrincipal", "getHeader", "getScheme" -> null;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
    }

    private static HttpServletResponse response() {
        return response(new java.util.ArrayList<>());
    }

    private static HttpServletResponse response(java.util.List<String> setCookies) {
        return (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isCommitted" -> false;
                    case "addHeader" -> {
                        if ("Set-Cookie".equals(args[0])) {
                            setCookies.add((String) args[1]);
                        }
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
    }
}
