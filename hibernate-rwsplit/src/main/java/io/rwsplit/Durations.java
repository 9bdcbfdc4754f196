package io.rwsplit;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The one syntax of every duration hibernate-rwsplit reads as text (its settings, the CDI module's pool settings,
 * the bound of {@code bounded_staleness:}): ISO-8601 ({@code PT0.5S}, {@code PT2M}) or a decimal number with a
 * unit, {@code ms}, {@code s}, {@code m} or {@code h} ({@code 250ms}, {@code 1.5s}, {@code 2m}, {@code 1h}), in any
 * case. A bare number other than {@code 0} is refused: it has no unit, and guessing one is how a timeout ends up
 * a thousand times too long. A leading {@code -} gives a negative duration, which the reader of a setting refuses
 * where a negative means nothing.
 */
public final class Durations {

    /** What {@link #parse} accepts, for error messages. */
    public static final String SYNTAX = "a duration such as PT0.5S, 250ms, 1.5s, 2m or 1h (a number needs a unit)";

    private Durations() {
    }

    /**
     * A setting's value as a duration: a {@link Duration} as given, text in the syntax above parsed, or null when
     * it is neither (the caller reports the key and the value).
     */
    public static Duration valueOrNull(Object value) {
        if (value instanceof Duration given) {
            return given;
        }
        try {
            return value == null ? null : parse(value.toString());
        }
        catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Parses {@code text} (surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming the text when it is not a duration in the syntax above
     */
    public static Duration parse(String text) {
        String t = text.trim();
        try {
            if (t.equals("0")) {
                return Duration.ZERO;
            }
            String upper = t.toUpperCase(Locale.ROOT);
            if (upper.startsWith("P") || upper.startsWith("-P") || upper.startsWith("+P")) {
                return Duration.parse(upper);
            }
            int unitAt = t.length();
            while (unitAt > 0 && Character.isLetter(t.charAt(unitAt - 1))) {
                unitAt--;
            }
            long nanosPerUnit = switch (upper.substring(unitAt)) {
                case "MS" -> 1_000_000L;
                case "S" -> 1_000_000_000L;
                case "M" -> 60_000_000_000L;
                case "H" -> 3_600_000_000_000L;
                default -> 0L;
            };
            String number = t.substring(0, unitAt).trim();
            if (nanosPerUnit != 0 && !number.isEmpty() && number.chars().allMatch(c -> c == '-' || c == '.' || Character.isDigit(c))) {
                BigDecimal nanos = new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit));
                return Duration.ofNanos(nanos.setScale(0, RoundingMode.UNNECESSARY).longValueExact());
            }
        }
        catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + text + "' is not " + SYNTAX);
    }
}
