package io.rwsplit.spi;

/**
 * The source of time for health checks, consistency windows and hysteresis. Injected (setting
 * {@code hibernate.rwsplit.clock}, an object in the settings map) so that tests can move time.
 */
public interface Clock {

    /** Monotonic nanoseconds, for intervals. */
    long nanoTime();

    /** Wall-clock time in microseconds since the epoch, for commit times that cross processes. */
    default long epochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The system clock. */
    Clock SYSTEM = System::nanoTime;
}
