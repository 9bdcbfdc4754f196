package io.rwsplit.spring;

import java.io.IOException;
import java.io.PrintWriter;
import java.security.Principal;
import java.util.List;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import jakarta.servlet.http.HttpSession;

import org.slf4j.MDC;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.web.filter.OncePerRequestFilter;

import io.rwsplit.Intent;
import io.rwsplit.web.ConsistencyCookie;
import io.rwsplit.internal.route.RoutingFrame;

/**
 * Gives every web request a consistency scope, without application code: the HTTP session if the request has
 * one, else the authenticated principal, else the scope of the signed consistency cookie (order configurable).
 * A request that wrote gets the cookie, carrying the token of its writes, so that the next request of the client
 * (the GET after a POST's redirect) reads them on any instance that shares the cookie key. Requests with unsafe
 * methods run every statement on the primary, so a read-modify-write in a handler never reads a replica. The
 * request id (from a header, else generated) is in the MDC while the request runs.
 */
final class ConsistencyFilter extends OncePerRequestFilter {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConsistencyFilter.class);
    private static final Set<String> UNSAFE = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final RoutingFrame PRIMARY = new RoutingFrame(Intent.PRIMARY, null);
    private static final RoutingFrame NOTHING = new RoutingFrame(null, null);

    private final RoutingContext context;
    private final RwSplitProperties.Web web;
    private final ConsistencyCookie cookies;
    private final List<RwSplitProperties.ScopeSource> order;
    /** Whether this instance said once that it met a cookie it cannot verify. */
    private final java.util.concurrent.atomic.AtomicBoolean warnedUnverified = new java.util.concurrent.atomic.AtomicBoolean();

    ConsistencyFilter(RoutingContext context, RwSplitProperties.Web web, ConsistencyCookie cookies) {
        this.context = context;
        this.web = web;
        this.cookies = cookies;
        this.order = List.copyOf(web.getScopeOrder());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String mdcKey = web.getRequestIdMdcKey();
        String previousId = MDC.get(mdcKey);
        MDC.put(mdcKey, requestId(request));
        ConsistencyCookie.Decoded cookie = web.getCookie().isEnabled() ? cookies.decode(cookieValue(request)) : null;
        boolean valid = cookie != null && cookie.status() == ConsistencyCookie.Status.VALID;
        boolean unverified = cookie != null && cookie.status() == ConsistencyCookie.Status.UNVERIFIED;
        if (unverified && warnedUnverified.compareAndSet(false, true)) {
            log.warn("hibernate-rwsplit: a request brought a consistency cookie this instance cannot verify (signed with"
                    + " another instance's key, or altered): its reads go to the primary and it gets this instance's"
                    + " cookie. Set the same spring.rwsplit.web.cookie.secret on every instance (logged once)");
        }
        String cookieScope = valid ? cookie.scope() : ConsistencyCookie.newScope();
        // an unverified cookie carries an untrusted requirement: the write it stood for is unknown
        RequestConsistency consistency = new RequestConsistency(scope(request, valid ? cookieScope : null),
                cookie == null ? null : cookie.token());
        boolean unsafe = web.isPrimaryForUnsafeMethods() && UNSAFE.contains(request.getMethod());
        CookieWriter writer = new CookieWriter(request, response, consistency, cookieScope, unverified);
        context.beginRequest(consistency, unsafe ? PRIMARY : NOTHING);
        try {
            chain.doFilter(request, writer);
        }
        finally {
            context.endRequest();
            writer.beforeCommit();
            if (previousId == null) {
                MDC.remove(mdcKey);
            }
            else {
                MDC.put(mdcKey, previousId);
            }
        }
    }

    /**
     * The scope key of the first source in the configured order that has one, or {@code null} (then the
     * sessions of the request read under the unit's default scope). {@code cookieScope} is the scope of the
     * cookie the request brought, or {@code null}.
     */
    private String scope(HttpServletRequest request, String cookieScope) {
        for (RwSplitProperties.ScopeSource source : order) {
            switch (source) {
                case SESSION -> {
                    HttpSession session = request.getSession(false);
                    if (session != null) {
                        return "session:" + session.getId();
                    }
                }
                case PRINCIPAL -> {
                    Principal principal = request.getUserPrincipal();
                    if (principal != null && principal.getName() != null) {
                        return "principal:" + principal.getName();
                    }
                }
                case COOKIE -> {
                    // A request without a cookie names no scope: a fresh scope has no writes, and naming it would
                    // only replace the unit-wide default (every write of this unit) with nothing.
                    if (cookieScope != null) {
                        return "cookie:" + cookieScope;
                    }
                }
            }
        }
        return null;
    }

    private String cookieValue(HttpServletRequest request) {
        Cookie[] all = request.getCookies();
        if (all != null) {
            for (Cookie c : all) {
                if (c.getName().equals(web.getCookie().getName())) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    private String requestId(HttpServletRequest request) {
        String header = web.getRequestIdHeader() == null ? null : request.getHeader(web.getRequestIdHeader());
        if (header != null && header.length() <= 64 && header.chars().allMatch(ConsistencyFilter::idChar)) {
            return header;
        }
        return ConsistencyCookie.newScope().substring(0, 12);
    }

    private static boolean idChar(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.';
    }

    /** Adds the cookie before the response is committed (redirect, error, body), once the request wrote. */
    private final class CookieWriter extends HttpServletResponseWrapper {

        private final HttpServletRequest request;
        private final RequestConsistency consistency;
        private final String scope;
        /** The request brought a cookie this instance cannot verify: it gets this instance's, written or not. */
        private final boolean replace;
        private io.rwsplit.position.ConsistencyToken written;

        CookieWriter(HttpServletRequest request, HttpServletResponse response, RequestConsistency consistency, String scope,
                     boolean replace) {
            super(response);
            this.request = request;
            this.consistency = consistency;
            this.scope = scope;
            this.replace = replace;
        }

        void beforeCommit() {
            if (!web.getCookie().isEnabled() || !(consistency.wrote() || replace) || isCommitted()) {
                return;
            }
            io.rwsplit.position.ConsistencyToken next = consistency.next();
            if (next.equals(written)) {
                return;
            }
            written = next;
            RwSplitProperties.Cookie c = web.getCookie();
            ResponseCookie cookie = ResponseCookie.from(c.getName(), cookies.encode(scope, next))
                    .httpOnly(true)
                    .secure(c.getSecure() != null ? c.getSecure() : request.isSecure())
                    .path(c.getPath())
                    .maxAge(cookies.maxAge())
                    .sameSite(c.getSameSite())
                    .build();
            addHeader(HttpHeaders.SET_COOKIE, cookie.toString());
        }

        @Override
        public void sendRedirect(String location) throws IOException {
            beforeCommit();
            super.sendRedirect(location);
        }

        @Override
        public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
            beforeCommit();
            super.sendRedirect(location, sc, clearBuffer);
        }

        @Override
        public void sendError(int sc) throws IOException {
            beforeCommit();
            super.sendError(sc);
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            beforeCommit();
            super.sendError(sc, msg);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            beforeCommit();
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            beforeCommit();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            beforeCommit();
            super.flushBuffer();
        }
    }
}
