package io.rwsplit.consistency;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.rwsplit.spi.Clock;

/** A clock that moves only when told to. */
public final class FakeClock implements Clock {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong epochMicros = new AtomicLong(1_700_000_000_000_000L);

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long epochMicros() {
        return epochMicros.get();
    }

    public void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
        epochMicros.addAndGet(d.toNanos() / 1_000);
    }
}
