package io.rwsplit.spring;

import java.util.ArrayDeque;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.Intent;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.ScopeResolver;
import io.rwsplit.internal.route.RoutingFrame;

/**
 * The routing state of the calling thread's unit of work, and the core's view of it: the intent and
 * consistency level of the innermost annotated call ({@link RoutingIntentSource}, read once per statement),
 * and the consistency scope, the token a web request brought and the writes it made ({@link ScopeResolver},
 * read once per session). One instance per application context, handed to every persistence unit as
 * {@code hibernate.rwsplit.intent_source} and {@code hibernate.rwsplit.scope_resolver}; its thread-local is
 * an instance field, emptied when the outermost call or request ends.
 */
public final class RoutingContext implements RoutingIntentSource, ScopeResolver {

    /** The state of one thread while an annotated call or a request is in progress. */
    private static final class State {
        RoutingFrame current = RoutingFrame.EMPTY;
        final ArrayDeque<RoutingFrame> outer = new ArrayDeque<>();
        RequestConsistency request;
    }

    private final ThreadLocal<State> states = new ThreadLocal<>();

    @Override
    public Intent currentIntent() {
        State state = states.get();
        return state == null ? Intent.NONE : state.current.intent();
    }

    @Override
    public io.rwsplit.Consistency currentConsistency() {
        State state = states.get();
        return state == null ? null : state.current.consistency();
    }

    @Override
    public String resolveScope() {
        RequestConsistency request = request();
        return request == null ? null : request.scope();
    }

    @Override
    public ConsistencyToken resolveRequirement() {
        RequestConsistency request = request();
        return request == null ? null : request.carried();
    }

    @Override
    public void committed(ConsistencyToken write) {
        RequestConsistency request = request();
        if (request != null) {
            request.wrote(write);
        }
    }

    /** The web request in progress on this thread, or {@code null}. */
    RequestConsistency request() {
        State state = states.get();
        return state == null ? null : state.request;
    }

    /** Enters {@code frame} (inheriting what it leaves unset); every {@code enter} is matched by one {@link #exit}. */
    void enter(RoutingFrame frame) {
        State state = states.get();
        if (state == null) {
            state = new State();
            states.set(state);
        }
        state.outer.push(state.current);
        state.current = frame.inside(state.current);
    }

    /** Leaves the innermost frame, restoring the enclosing one. */
    void exit() {
        State state = states.get();
        if (state == null || state.outer.isEmpty()) {
            throw new IllegalStateException("hibernate-rwsplit: routing frame exited twice");
        }
        state.current = state.outer.pop();
        if (state.outer.isEmpty() && state.request == null) {
            states.remove();
        }
    }

    /** Starts a web request on this thread: its scope, token and base frame apply until {@link #endRequest}. */
    void beginRequest(RequestConsistency request, RoutingFrame base) {
        State state = states.get();
        if (state == null) {
            state = new State();
            states.set(state);
        }
        if (state.request != null) {
            throw new IllegalStateException("hibernate-rwsplit: a request is already in progress on this thread");
        }
        state.request = request;
        state.outer.push(state.current);
        state.current = base.inside(state.current);
    }

    /** Ends the request begun on this thread. */
    void endRequest() {
        State state = states.get();
        if (state == null || state.request == null) {
            return;
        }
        state.request = null;
        state.current = state.outer.isEmpty() ? RoutingFrame.EMPTY : state.outer.pop();
        if (state.outer.isEmpty()) {
            states.remove();
        }
    }
}
