package io.rwsplit.quarkus;

import java.security.Principal;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.quarkus.runtime.BlockingOperationControl;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.rwsplit.Intent;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.web.ConsistencyCookie;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Session;

/**
 * Gives every Quarkus REST request a consistency scope, without application code: the HTTP session if the request has
 * one (Quarkus REST has none unless the application installs a Vert.x session handler), else the authenticated
 * principal, else the scope of the signed consistency cookie. A request that wrote gets the cookie, carrying the token
 * of its writes, so that the next request of the client (the GET after a POST's redirect) reads them on any instance
 * that shares the cookie key. Requests with unsafe methods run every statement on the primary, so a read-modify-write
 * in a resource method never reads a replica.
 * <p>
 * A JAX-RS filter pair, not a Vert.x route filter: Quarkus REST runs the request filters of a blocking resource method
 * on the worker thread that then runs the method (the core reads the scope and intent on the statement's thread), and
 * the response filter before the response is written (the cookie header is still free to add), after the method's
 * JTA transaction committed. A request that runs on the event loop runs no blocking Hibernate ORM statement: it is
 * left alone.
 */
@Singleton
public class RestConsistencyFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final Logger log = LoggerFactory.getLogger(RestConsistencyFilter.class);
    private static final Set<String> UNSAFE = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final String PROPERTY = RestConsistencyFilter.class.getName();

    private final RestRequests requests;
    private final CurrentVertxRequest vertxRequest;
    /** Whether this instance said once that it met a cookie it cannot verify. */
    private final AtomicBoolean warnedUnverified = new AtomicBoolean();

    @Inject
    public RestConsistencyFilter(RestRequests requests, CurrentVertxRequest vertxRequest) {
        this.requests = requests;
        this.vertxRequest = vertxRequest;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        RestRequests.Web web = requests.web();
        if (web == null || !BlockingOperationControl.isBlockingAllowed()) {
            return;
        }
        ConsistencyCookie.Decoded cookie = web.cookie().enabled()
                ? web.cookies().decode(cookieValue(request, web.cookie().name())) : null;
        boolean valid = cookie != null && cookie.status() == ConsistencyCookie.Status.VALID;
        boolean unverified = cookie != null && cookie.status() == ConsistencyCookie.Status.UNVERIFIED;
        if (unverified && warnedUnverified.compareAndSet(false, true)) {
            log.warn("hibernate-rwsplit: a request brought a consistency cookie this instance cannot verify (signed with"
                    + " another instance's key, or altered): its reads go to the primary and it gets this instance's"
                    + " cookie. Set the same {} on every instance (logged once)", RwSplitWebConfig.SECRET_PROPERTY);
        }
        String cookieScope = valid ? cookie.scope() : ConsistencyCookie.newScope();
        Intent intent = web.primaryForUnsafeMethods() && UNSAFE.contains(request.getMethod()) ? Intent.PRIMARY : Intent.NONE;
        // an unverified cookie carries an untrusted requirement: the write it stood for is unknown
        RequestConsistency consistency = new RequestConsistency(scope(request, valid ? cookieScope : null),
                cookie == null ? null : cookie.token(), intent);
        request.setProperty(PROPERTY, new InProgress(web, consistency, cookieScope, unverified));
        requests.begin(consistency);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(PROPERTY) instanceof InProgress progress)) {
            return;
        }
        requests.end(progress.consistency());
        if (progress.web().cookie().enabled() && (progress.consistency().wrote() || progress.replace())) {
            response.getHeaders().add(HttpHeaders.SET_COOKIE,
                    setCookie(progress.web(), progress.scope(), progress.consistency().next(), request));
        }
    }

    /** The {@code Set-Cookie} value of the cookie for {@code scope} and {@code token}. */
    private static String setCookie(RestRequests.Web web, String scope, ConsistencyToken token,
                                    ContainerRequestContext request) {
        RwSplitWebConfig.Cookie config = web.cookie();
        boolean secure = config.secure().orElseGet(() -> request.getSecurityContext().isSecure());
        return config.name() + "=" + web.cookies().encode(scope, token)
                + "; Max-Age=" + web.cookies().maxAge().toSeconds()
                + "; Path=" + config.path()
                + "; HttpOnly"
                + (secure ? "; Secure" : "")
                + "; SameSite=" + config.sameSite().attribute();
    }

    /**
     * The scope key of the request's HTTP session, else of its principal, else of its cookie ({@code cookieScope},
     * the scope of a valid cookie or {@code null}), else {@code null} (then its sessions read under the unit's
     * default scope).
     */
    private String scope(ContainerRequestContext request, String cookieScope) {
        RoutingContext routing = vertxRequest.getCurrent();
        Session session = routing == null ? null : routing.session();
        if (session != null && session.id() != null) {
            return "session:" + session.id();
        }
        Principal principal = request.getSecurityContext() == null ? null : request.getSecurityContext().getUserPrincipal();
        if (principal != null && principal.getName() != null && !principal.getName().isEmpty()) {
            return "principal:" + principal.getName();
        }
        // A request without a cookie names no scope: a fresh scope has no writes, and naming it would only replace the
        // unit-wide default (every write of this unit) with nothing.
        return cookieScope == null ? null : "cookie:" + cookieScope;
    }

    private static String cookieValue(ContainerRequestContext request, String name) {
        Cookie cookie = request.getCookies().get(name);
        return cookie == null ? null : cookie.getValue();
    }

    /**
     * A request between its two filters: its state, the cookie scope its cookie carries (new when it brought none),
     * and whether it brought a cookie this instance cannot verify (then it gets this instance's, written or not).
     */
    private record InProgress(RestRequests.Web web, RequestConsistency consistency, String scope, boolean replace) {
    }
}
