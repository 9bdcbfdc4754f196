package io.rwsplit.quarkus;

import java.util.ArrayDeque;

import jakarta.enterprise.context.RequestScoped;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.internal.route.RoutingFrame;

/**
 * The routing frames of the {@code @ReadReplica} / {@code @UsePrimary} / {@code @ReadConsistency} calls in progress
 * in one request: the innermost call's intent and level are what {@link ArcIntentSource} hands the core.
 * Request-scoped, hence confined to the request's thread; {@link RoutingInvocation} activates a request context for
 * a call made where none is active.
 */
@RequestScoped
class AnnotatedCalls {

    private final ArrayDeque<RoutingFrame> outer = new ArrayDeque<>();
    private RoutingFrame current = RoutingFrame.EMPTY;

    /** The intent of the innermost annotated call, {@link Intent#NONE} outside any. */
    Intent intent() {
        return current.intent();
    }

    /** The level of the innermost annotated call that named one, or {@code null}. */
    Consistency consistency() {
        return current.consistency();
    }

    void push(RoutingFrame frame) {
        outer.push(current);
        current = frame.inside(current);
    }

    void pop() {
        current = outer.isEmpty() ? RoutingFrame.EMPTY : outer.pop();
    }
}
