package io.rwsplit.internal.consistency;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;
import io.rwsplit.spi.Clock;

/**
 * Writes the store has not taken yet, per store key (merged), so that none is dropped while the store cannot
 * be reached. Bounded: once {@code max} keys wait, further writes of other keys are merged into one
 * <em>unplaced</em> token, which every read of this instance must see from then on: while it waits, no scope's
 * state is known (reads use the primary); once the keys that did fit are written, it is honoured by every read
 * of this instance until {@code ttl} after it was last raised (the store's own TTL). Thread-safe.
 */
final class PendingWrites {

    private final Map<String, ConsistencyToken> byKey = new ConcurrentHashMap<>();
    private final AtomicReference<ConsistencyToken> unplaced = new AtomicReference<>();
    private final Clock clock;
    private final int max;
    private final long ttlNanos;
    /** Whether writes overflowed since the keys were last all written. */
    private volatile boolean overflowed;
    private volatile long unplacedUntilNanos;

    PendingWrites(Clock clock, int max, long ttlNanos) {
        this.clock = clock;
        this.max = max;
        this.ttlNanos = ttlNanos;
    }

    /**
     * Keeps {@code write} of {@code key} until {@link #flush} writes it; false when it did not fit (it is then
     * unplaced, see the class comment).
     */
    boolean add(String key, ConsistencyToken write) {
        if (byKey.size() < max || byKey.containsKey(key)) {
            byKey.merge(key, write, Tokens::merge);
            return true;
        }
        unplaced.accumulateAndGet(write, Tokens::merge);
        unplacedUntilNanos = clock.nanoTime() + ttlNanos;
        overflowed = true;
        return false;
    }

    boolean isEmpty() {
        return byKey.isEmpty() && !overflowed;
    }

    int size() {
        return byKey.size();
    }

    /** Whether writes overflowed and the keys that fit are not all written yet: no scope's state is known. */
    boolean overflowed() {
        return overflowed;
    }

    /** What a read of {@code key} must see beyond what the store answered ({@code stored}). */
    ConsistencyToken honoured(String key, ConsistencyToken stored) {
        ConsistencyToken merged = byKey.isEmpty() ? stored : Tokens.merge(stored, byKey.get(key));
        ConsistencyToken lost = unplaced.get();
        if (lost != null) {
            if (clock.nanoTime() - unplacedUntilNanos < 0) {
                return Tokens.merge(merged, lost);
            }
            unplaced.compareAndSet(lost, null);
        }
        return merged;
    }

    /**
     * The write of {@code key} to take when a new write of it goes to the store directly: it is taken by {@code
     * written} once that succeeded. {@code null} when none waits.
     */
    ConsistencyToken waiting(String key) {
        return byKey.isEmpty() ? null : byKey.get(key);
    }

    /** {@code waiting} (as {@link #waiting} returned it) is in the store; a write merged in since stays. */
    void written(String key, ConsistencyToken waiting) {
        if (waiting != null) {
            byKey.remove(key, waiting);
        }
    }

    /**
     * Offers each waiting write to {@code store} (true: written), stopping at the first it refuses; a write
     * merged into a key while it was written stays for the next flush. True when none is left waiting.
     */
    boolean flush(BiPredicate<String, ConsistencyToken> store) {
        for (Map.Entry<String, ConsistencyToken> e : byKey.entrySet()) {
            if (!store.test(e.getKey(), e.getValue())) {
                return false;
            }
            byKey.remove(e.getKey(), e.getValue());
        }
        if (byKey.isEmpty()) {
            overflowed = false;
            return true;
        }
        return false;
    }
}
