package io.rwsplit.quarkus;

import java.nio.charset.StandardCharsets;

import jakarta.inject.Singleton;

import io.rwsplit.Intent;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.ScopeResolver;
import io.rwsplit.web.ConsistencyCookie;
import io.rwsplit.web.Signing;

/**
 * The Quarkus REST request running on the calling thread, as the core sees it: its scope, the token its cookie
 * brought and the writes its sessions commit ({@link ScopeResolver}, read once per session), and its intent
 * ({@link RoutingIntentSource}, read once per statement: {@link Intent#PRIMARY} for unsafe methods). Set by
 * {@link RestConsistencyFilter} on the thread that runs the resource method (Quarkus REST runs the request filters
 * of a blocking method on its worker thread) and removed when the response is filtered.
 * <p>
 * Quarkus REST creates its filters at static init, before the run-time configuration is known: the request scope is
 * off until {@link #activate} hands it {@code quarkus.rwsplit.web.*}, at run-time init of a routed persistence unit.
 */
@Singleton
public class RestRequests implements ScopeResolver, RoutingIntentSource {

    /** The request scope's settings: the cookie's, its codec (signed with the configured key), the unsafe methods'. */
    record Web(RwSplitWebConfig.Cookie cookie, ConsistencyCookie cookies, boolean primaryForUnsafeMethods) {
    }

    private final ThreadLocal<RequestConsistency> current = new ThreadLocal<>();
    /** {@code null} until a routed unit starts with {@code quarkus.rwsplit.web.enabled}. */
    private volatile Web web;

    /** Switches the request scope on with {@code config} (validated by {@link WebSettings}). */
    void activate(RwSplitWebConfig config) {
        Signing signing = config.cookie().secret()
                .map(secret -> new Signing(secret.getBytes(StandardCharsets.UTF_8)))
                .orElseGet(Signing::random);
        web = new Web(config.cookie(), new ConsistencyCookie(signing, config.cookie().maxAge(), Clock.SYSTEM),
                config.primaryForUnsafeMethods());
    }

    /** The request scope's settings, or {@code null} while it is off. */
    Web web() {
        return web;
    }

    @Override
    public Intent currentIntent() {
        RequestConsistency request = current.get();
        return request == null ? Intent.NONE : request.intent();
    }

    @Override
    public String resolveScope() {
        RequestConsistency request = current.get();
        return request == null ? null : request.scope();
    }

    @Override
    public ConsistencyToken resolveRequirement() {
        RequestConsistency request = current.get();
        return request == null ? null : request.carried();
    }

    @Override
    public void committed(ConsistencyToken write) {
        RequestConsistency request = current.get();
        if (request != null) {
            request.wrote(write);
        }
    }

    /**
     * Starts {@code request} on this thread. A request whose response was never filtered on this thread (it ended
     * on another) left its state behind: it is replaced.
     */
    void begin(RequestConsistency request) {
        current.set(request);
    }

    /** Ends {@code request} on this thread, if it is the one in progress here. */
    void end(RequestConsistency request) {
        if (current.get() == request) {
            current.remove();
        }
    }
}
