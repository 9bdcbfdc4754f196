package io.rwsplit.health;

import java.time.Duration;

import io.rwsplit.spi.Clock;

/** A clock that moves only when told to. */
public final class FakeClock implements Clock {

    private volatile long nanos = 1_000_000_000L;
    private volatile long epochMicros = 1_700_000_000_000_000L;

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public long epochMicros() {
        return epochMicros;
    }

    public FakeClock advance(Duration d) {
        nanos += d.toNanos();
        epochMicros += d.toNanos() / 1000;
        return this;
    }

    public FakeClock advanceMillis(long millis) {
        return advance(Duration.ofMillis(millis));
    }
}
