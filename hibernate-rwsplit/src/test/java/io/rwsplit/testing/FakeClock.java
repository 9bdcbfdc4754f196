package io.rwsplit.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.rwsplit.spi.Clock;

/**
 * A clock that moves only when a test tells it to. Safe to read from routing or monitor threads while the test
 * moves it: both readings come from one counter, so the wall clock and the monotonic clock never disagree.
 */
public final class FakeClock implements Clock {

    private static final long START_NANOS = 1_000_000_000L;
    private static final long START_EPOCH_MICROS = 1_700_000_000_000_000L;

    private final AtomicLong nanos = new AtomicLong(START_NANOS);

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long epochMicros() {
        return START_EPOCH_MICROS + (nanos.get() - START_NANOS) / 1_000;
    }

    /** Moves both readings forward by {@code d}. */
    public FakeClock advance(Duration d) {
        nanos.addAndGet(d.toNanos());
        return this;
    }

    public FakeClock advanceMillis(long millis) {
        return advance(Duration.ofMillis(millis));
    }
}
