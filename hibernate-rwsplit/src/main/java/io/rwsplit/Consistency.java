package io.rwsplit;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How fresh the reads of a session must be. Immutable; compared by value.
 * <ul>
 *   <li>{@link #strong()}: every read goes to the primary.</li>
 *   <li>{@link #readYourWrites()} (the default): a read never sees data older than its scope's last
 *       committed write; other reads go to replicas.</li>
 *   <li>{@link #boundedStaleness(Duration)}: a replica whose measured lag is at most the bound, else
 *       the primary.</li>
 *   <li>{@link #eventual()}: any healthy replica.</li>
 * </ul>
 * The setting {@link RwSplitSettings#CONSISTENCY} accepts the same levels as text:
 * {@code strong}, {@code read_your_writes}, {@code bounded_staleness:PT0.5S} (or {@code bounded_staleness:500ms}), {@code eventual}.
 */
public final class Consistency {

    /** The level without its parameter. */
    public enum Level {
        STRONG, READ_YOUR_WRITES, BOUNDED_STALENESS, EVENTUAL
    }

    private static final Consistency STRONG = new Consistency(Level.STRONG, Duration.ZERO);
    private static final Consistency READ_YOUR_WRITES = new Consistency(Level.READ_YOUR_WRITES, Duration.ZERO);
    private static final Consistency EVENTUAL = new Consistency(Level.EVENTUAL, Duration.ZERO);

    private final Level level;
    private final Duration bound;
    private final long boundMicros;

    private Consistency(Level level, Duration bound) {
        this.level = level;
        this.bound = bound;
        this.boundMicros = bound.toNanos() / 1_000;
    }

    /** Every read on the primary. */
    public static Consistency strong() {
        return STRONG;
    }

    /** Reads never older than the scope's last committed write. */
    public static Consistency readYourWrites() {
        return READ_YOUR_WRITES;
    }

    /**
     * Reads from a replica whose measured lag is at most {@code maxLag}, else from the primary.
     *
     * @throws IllegalArgumentException if {@code maxLag} is negative
     */
    public static Consistency boundedStaleness(Duration maxLag) {
        Objects.requireNonNull(maxLag, "maxLag");
        if (maxLag.isNegative()) {
            throw new IllegalArgumentException("bounded staleness must not be negative, was " + maxLag);
        }
        return new Consistency(Level.BOUNDED_STALENESS, maxLag);
    }

    /** Reads from any healthy replica. */
    public static Consistency eventual() {
        return EVENTUAL;
    }

    /**
     * Parses {@code strong}, {@code read_your_writes}, {@code bounded_staleness:<duration>} (a duration as
     * {@link Durations#parse} reads it, not negative) or {@code eventual} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the text when it is none of these
     */
    public static Consistency parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "strong":
                return STRONG;
            case "read_your_writes":
                return READ_YOUR_WRITES;
            case "eventual":
                return EVENTUAL;
            default:
                break;
        }
        String prefix = "bounded_staleness:";
        if (t.startsWith(prefix)) {
            try {
                Duration d = Durations.parse(text.trim().substring(prefix.length()));
                if (!d.isNegative()) {
                    return new Consistency(Level.BOUNDED_STALENESS, d);
                }
            }
            catch (IllegalArgumentException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("unknown consistency level '" + text + "': expected strong, read_your_writes,"
                + " bounded_staleness:<duration such as PT0.5S or 500ms, not negative> or eventual");
    }

    public Level level() {
        return level;
    }

    /** The staleness bound of {@link Level#BOUNDED_STALENESS}; {@link Duration#ZERO} for the other levels. */
    public Duration bound() {
        return bound;
    }

    /** The bound in microseconds. */
    public long boundMicros() {
        return boundMicros;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Consistency other && level == other.level && bound.equals(other.bound);
    }

    @Override
    public int hashCode() {
        return level.hashCode() * 31 + bound.hashCode();
    }

    /** The text {@link #parse} accepts. */
    @Override
    public String toString() {
        return level == Level.BOUNDED_STALENESS ? "bounded_staleness:" + bound : level.name().toLowerCase(Locale.ROOT);
    }
}
