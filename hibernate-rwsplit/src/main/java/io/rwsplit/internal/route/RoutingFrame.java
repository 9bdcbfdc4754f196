package io.rwsplit.internal.route;

import java.util.Objects;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;

/**
 * What one annotated call (or a web request) asks: an intent and a consistency level. A {@code null} part is
 * inherited from the enclosing frame when the frame is entered ({@link #inside}). Used by the Spring and CDI
 * modules alike; resolved from the annotations by {@link RoutingAnnotations}.
 *
 * @param intent      {@link Intent#PRIMARY}, {@link Intent#REPLICA}, or {@code null} to inherit
 * @param consistency the level of the reads, or {@code null} to inherit
 */
public record RoutingFrame(Intent intent, Consistency consistency) {

    /** The frame outside every call: no intent, the session's own level. */
    public static final RoutingFrame EMPTY = new RoutingFrame(Intent.NONE, null);

    /** Whether the frame asks for nothing (entering it changes nothing). */
    public boolean isEmpty() {
        return intent == null && consistency == null;
    }

    /** This frame, inheriting the intent of the enclosing call instead of naming one. */
    public RoutingFrame withoutIntent() {
        return new RoutingFrame(null, consistency);
    }

    /** This frame with the unset parts taken from {@code outer}. */
    public RoutingFrame inside(RoutingFrame outer) {
        Intent i = intent != null ? intent : outer.intent;
        Consistency c = consistency != null ? consistency : outer.consistency;
        return i == outer.intent && Objects.equals(c, outer.consistency) ? outer : new RoutingFrame(i, c);
    }
}
