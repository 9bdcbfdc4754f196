package io.rwsplit.spring;

import java.util.Objects;

import io.rwsplit.route.Intent;

/**
 * What one annotated call (or a web request) asked: an intent and a consistency level; {@code null} parts
 * are inherited from the enclosing frame when the frame is entered.
 */
record RoutingFrame(Intent intent, io.rwsplit.Consistency consistency) {

    static final RoutingFrame EMPTY = new RoutingFrame(Intent.NONE, null);

    /** Whether the frame asks for nothing (entering it changes nothing). */
    boolean isEmpty() {
        return intent == null && consistency == null;
    }

    /** This frame with the unset parts taken from {@code outer}. */
    RoutingFrame inside(RoutingFrame outer) {
        Intent i = intent != null ? intent : outer.intent;
        io.rwsplit.Consistency c = consistency != null ? consistency : outer.consistency;
        return i == outer.intent && Objects.equals(c, outer.consistency) ? outer : new RoutingFrame(i, c);
    }
}
