package io.rwsplit.internal.consistency;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.ConsistencyStore;

/**
 * The {@code memory} store: scopes of one JVM. Each entry expires {@code ttl} after its last write; when
 * more than {@code maxScopes} are kept, expired entries and then those closest to expiry are dropped down
 * to 90% of the bound (by one thread at a time, never by readers).
 */
public final class InMemoryConsistencyStore implements ConsistencyStore {

    private record Entry(ConsistencyToken write, long expiresAtNanos) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Clock clock;
    private final long ttlNanos;
    private final int maxScopes;
    private final ReentrantLock trimming = new ReentrantLock();

    public InMemoryConsistencyStore(Clock clock, Duration ttl, int maxScopes) {
        if (ttl.isNegative() || ttl.isZero() || maxScopes < 1) {
            throw new IllegalArgumentException("ttl must be positive and maxScopes at least 1, were " + ttl + " and " + maxScopes);
        }
        this.clock = clock;
        this.ttlNanos = ttl.toNanos();
        this.maxScopes = maxScopes;
    }

    @Override
    public ConsistencyToken read(String scope) {
        Entry e = entries.get(scope);
        if (e == null) {
            return null;
        }
        if (clock.nanoTime() - e.expiresAtNanos >= 0) {
            entries.remove(scope, e);
            return null;
        }
        return e.write;
    }

    @Override
    public void record(String scope, ConsistencyToken write) {
        long now = clock.nanoTime();
        long expires = now + ttlNanos;
        entries.compute(scope, (k, old) -> new Entry(
                old == null || now - old.expiresAtNanos >= 0 ? write : Tokens.merge(old.write, write), expires));
        if (entries.size() > maxScopes) {
            trim();
        }
    }

    /** How many scopes are kept (expired entries included until they are read or trimmed). */
    public int size() {
        return entries.size();
    }

    private void trim() {
        if (!trimming.tryLock()) {
            return;
        }
        try {
            long now = clock.nanoTime();
            entries.values().removeIf(e -> now - e.expiresAtNanos >= 0);
            int excess = entries.size() - maxScopes * 9 / 10;
            if (excess <= 0) {
                return;
            }
            List<Map.Entry<String, Entry>> all = new ArrayList<>(entries.entrySet());
            all.sort((a, b) -> Long.compare(a.getValue().expiresAtNanos - now, b.getValue().expiresAtNanos - now));
            for (int i = 0; i < excess && i < all.size(); i++) {
                entries.remove(all.get(i).getKey(), all.get(i).getValue());
            }
        }
        finally {
            trimming.unlock();
        }
    }
}
