package io.rwsplit.cdi;

import java.util.ArrayDeque;

import jakarta.enterprise.context.RequestScoped;

import io.rwsplit.Intent;
import io.rwsplit.internal.route.RoutingFrame;

/**
 * The routing state of one request: the consistency scope the application names (typically the
 * authenticated user, so that {@code READ_YOUR_WRITES} sees that user's writes across requests, also on
 * other application instances sharing the consistency store), and the stack of intents of the
 * intercepted calls in progress. Request-scoped, hence confined to the request's
 * thread; the interceptors activate a request context for calls made where none is active.
 * <pre>{@code
 * @Inject RwSplitRequest rwsplit;
 * ...
 * rwsplit.scopeKey(securityIdentity.getPrincipal().getName());
 * }</pre>
 */
@RequestScoped
public class RwSplitRequest {

    private final ArrayDeque<RoutingFrame> frames = new ArrayDeque<>();
    private RoutingFrame current = RoutingFrame.EMPTY;
    private String scopeKey;

    /**
     * Names the consistency scope of this request ({@code null}: each session is its own scope). Sessions
     * take it at their first statement that needs it (the core's {@link io.rwsplit.spi.ScopeResolver}):
     * name it before the request's first read; {@code RwSplit.scope(em, key)} still overrides it per session.
     */
    public void scopeKey(String key) {
        if (key != null && key.isBlank()) {
            throw new IllegalArgumentException("scope key must not be blank");
        }
        this.scopeKey = key;
    }

    /** The consistency scope of this request, or {@code null}. */
    public String scopeKey() {
        return scopeKey;
    }

    /** The routing intent of the innermost intercepted call, {@link Intent#NONE} outside any. */
    public Intent intent() {
        return current.intent();
    }

    /** The consistency level of the innermost intercepted call that named one, or {@code null}. */
    public io.rwsplit.Consistency consistency() {
        return current.consistency();
    }

    void push(RoutingFrame frame) {
        frames.push(current);
        current = frame.inside(current);
    }

    void pop() {
        current = frames.isEmpty() ? RoutingFrame.EMPTY : frames.pop();
    }
}
