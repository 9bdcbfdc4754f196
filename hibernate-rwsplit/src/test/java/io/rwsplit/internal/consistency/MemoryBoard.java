package io.rwsplit.internal.consistency;

import java.util.concurrent.atomic.AtomicReference;

import io.rwsplit.position.LsnPosition;

/** A {@link SharedReplayPoll.Board} that keeps the furthest position any poll saw (one epoch, never forgotten). */
final class MemoryBoard implements SharedReplayPoll.Board {

    private final AtomicReference<LsnPosition> seen = new AtomicReference<>();

    @Override
    public boolean replayed(LsnPosition need) {
        LsnPosition known = seen.get();
        return known != null && known.contains(need);
    }

    @Override
    public long epoch() {
        return 1;
    }

    @Override
    public void saw(LsnPosition position, long epoch) {
        seen.accumulateAndGet(position, (a, b) -> a == null || b.contains(a) ? b : a);
    }
}
