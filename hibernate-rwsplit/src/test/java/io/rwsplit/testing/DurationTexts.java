package io.rwsplit.testing;

import java.util.List;

/**
 * Duration texts every module must accept or refuse alike, for a duration that may be zero but not negative:
 * the core's settings, the typed-less Spring path ({@code spring.jpa.properties.hibernate.rwsplit.*}) and the
 * CDI module's own pool settings all read durations with {@code io.rwsplit.Durations}.
 */
public final class DurationTexts {

    private DurationTexts() {
    }

    /** ISO-8601 in any case, a decimal number with ms, s, m or h, and a bare zero. */
    public static final List<String> ACCEPTED = List.of("PT0.5S", "pt2s", "250ms", "1.5s", "2m", "1h", "0");

    /** A bare number, a negative duration, an unknown unit, words. */
    public static final List<String> REFUSED = List.of("500", "1.5", "-1s", "-PT1S", "1d", "2 min", "soon");
}
