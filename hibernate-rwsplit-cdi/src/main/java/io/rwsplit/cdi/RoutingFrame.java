package io.rwsplit.cdi;

import java.util.Objects;

import io.rwsplit.route.Intent;

/**
 * What one intercepted call asked: an intent and a consistency level; {@code null} parts are inherited
 * from the enclosing call when the frame is pushed.
 */
record RoutingFrame(Intent intent, io.rwsplit.Consistency consistency) {

    static final RoutingFrame EMPTY = new RoutingFrame(Intent.NONE, null);

    /** This frame, inheriting the intent of the enclosing call instead of naming one. */
    RoutingFrame withoutIntent() {
        return new RoutingFrame(null, consistency);
    }

    /** This frame with the unset parts taken from {@code outer}. */
    RoutingFrame inside(RoutingFrame outer) {
        Intent i = intent != null ? intent : outer.intent;
        io.rwsplit.Consistency c = consistency != null ? consistency : outer.consistency;
        return i == outer.intent && Objects.equals(c, outer.consistency) ? outer : new RoutingFrame(i, c);
    }
}
