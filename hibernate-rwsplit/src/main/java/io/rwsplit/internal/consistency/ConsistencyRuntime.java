package io.rwsplit.internal.consistency;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.ConfigurationException;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.ConsistencyStore;

/**
 * The consistency machinery one persistence unit shares: settings, the store, the scope resolver, the
 * clock. Wraps the store so that an unreachable store is reported once (and once when it is back), is not
 * asked again by reads for a second after a failure, and never loses a write: a write the store cannot take
 * waits in {@link PendingWrites} (bounded by {@code consistency_store_max_scopes}) and a background thread
 * writes it as soon as the store answers again. Until then, reads of this instance honour it exactly, and
 * reads of any scope while the store fails report the scope's state unknown (they use the primary).
 * Thread-safe.
 */
public final class ConsistencyRuntime implements AutoCloseable {

    /** Named as before the package moved under internal, like the decision log {@code io.rwsplit.route}. */
    static final Logger log = LoggerFactory.getLogger("io.rwsplit.consistency");

    /** How long store commands may take before the scope counts as unknown. */
    static final Duration STORE_TIMEOUT = Duration.ofMillis(500);
    private static final long STORE_RETRY_NANOS = 1_000_000_000L;
    /** How often the background thread offers waiting writes to the store. */
    static final Duration FLUSH_INTERVAL = Duration.ofMillis(250);

    private final ConsistencyConfig config;
    private final Clock clock;
    private final ConsistencyStore store;
    private final boolean ownsStore;
    private final boolean sharedStore;
    private final long windowMicros;
    private final long waitMicros;
    private final PendingWrites pending;
    private volatile boolean storeDown;
    private volatile long storeRetryAt;
    private boolean warnedOverflow;
    /** Offers waiting writes to the store; started at the first write that had to wait. */
    private ScheduledExecutorService flusher;
    private boolean closed;

    public ConsistencyRuntime(ConsistencyConfig config, Clock clock, ConsistencyStore store, boolean ownsStore) {
        this.config = config;
        this.clock = clock;
        this.store = store;
        this.ownsStore = ownsStore;
        this.sharedStore = !(store instanceof InMemoryConsistencyStore);
        this.windowMicros = config.window().toNanos() / 1_000;
        this.waitMicros = config.causalWaitTimeout().toNanos() / 1_000;
        this.pending = new PendingWrites(clock, config.maxScopes(), config.storeTtl().toNanos());
    }

    /** Reads and validates the settings and builds the store they select. */
    public static ConsistencyRuntime create(Map<String, Object> settings, Clock clock) {
        return create(ConsistencyConfig.from(settings), clock);
    }

    /** Builds the store the configuration selects. */
    public static ConsistencyRuntime create(ConsistencyConfig config, Clock clock) {
        Object spec = config.store();
        if (spec instanceof ConsistencyStore given) {
            return new ConsistencyRuntime(config, clock, given, false);
        }
        String name = spec.toString();
        if (name.equalsIgnoreCase("memory")) {
            return new ConsistencyRuntime(config, clock,
                    new InMemoryConsistencyStore(clock, config.storeTtl(), config.maxScopes()), true);
        }
        if (name.equalsIgnoreCase("redis")) {
            return new ConsistencyRuntime(config, clock, RedisStores.create(config, clock), true);
        }
        return new ConsistencyRuntime(config, clock,
                Settings.instantiate(RwSplitSettings.CONSISTENCY_STORE, name, ConsistencyStore.class), true);
    }

    /** Whether the store is shared with other instances (anything but the {@code memory} store). */
    boolean sharedStore() {
        return sharedStore;
    }

    public ConsistencyConfig config() {
        return config;
    }

    Clock clock() {
        return clock;
    }

    long windowMicros() {
        return windowMicros;
    }

    long waitMicros() {
        return waitMicros;
    }

    /**
     * The scope's last writes, with this instance's writes the store has not taken yet; throws when the store
     * cannot answer, and while writes wait that did not fit the bound (then the scope is unknown).
     */
    ConsistencyToken read(String key) {
        if (storeDown && clock.nanoTime() - storeRetryAt < 0) {
            throw new IllegalStateException("consistency store unavailable (retrying in at most a second)");
        }
        if (pending.overflowed()) {
            throw new IllegalStateException("more scopes' writes wait for the consistency store than "
                    + RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES + " allows: every scope's state is unknown until"
                    + " they are written");
        }
        ConsistencyToken token;
        try {
            token = store.read(key);
        }
        catch (StoreSettlingException e) {
            throw e; // the store answers, but holds reads back for a moment: not a failure
        }
        catch (RuntimeException e) {
            storeFailed("read", e);
            throw e;
        }
        if (storeDown) {
            storeUp();
        }
        return pending.honoured(key, token);
    }

    /**
     * Records a write. Never blocks on a store that failed: while it fails, and when this write fails, the write
     * waits in {@link PendingWrites} and the background thread writes it once the store answers.
     */
    void record(String key, ConsistencyToken write) {
        if (!storeDown) {
            ConsistencyToken waiting = pending.waiting(key);
            try {
                store.record(key, Tokens.merge(waiting, write));
                pending.written(key, waiting);
                return;
            }
            catch (RuntimeException e) {
                storeFailed("record", e);
            }
        }
        if (!pending.add(key, write)) {
            overflowed();
        }
        startFlusher();
    }

    /**
     * Offers the waiting writes to the store (the background thread, every {@link #FLUSH_INTERVAL}); true when
     * none is left waiting.
     */
    boolean flushPending() {
        if (pending.isEmpty()) {
            return true;
        }
        boolean done = pending.flush((key, write) -> {
            try {
                store.record(key, write);
                return true;
            }
            catch (RuntimeException e) {
                storeFailed("record", e);
                return false;
            }
        });
        if (done) {
            synchronized (this) {
                warnedOverflow = false;
            }
            if (storeDown) {
                storeUp();
            }
        }
        return done;
    }

    /** How many scopes' writes wait for the store. */
    int pendingScopes() {
        return pending.size();
    }

    private void overflowed() {
        synchronized (this) {
            if (warnedOverflow) {
                return;
            }
            warnedOverflow = true;
        }
        log.warn("hibernate-rwsplit: consistency store {} cannot be reached and the writes of {} scopes wait for it"
                + " ({}): further writes are kept as one position, so reads of every scope on this instance use the"
                + " primary until the waiting writes are written, and other instances may read the scopes that did not"
                + " fit from a lagging replica", store.getClass().getSimpleName(), pending.size(),
                RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES);
    }

    private synchronized void startFlusher() {
        if (flusher != null || closed) {
            return;
        }
        flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rwsplit-consistency-flush-" + config.unitName());
            t.setDaemon(true);
            return t;
        });
        long every = FLUSH_INTERVAL.toNanos();
        flusher.scheduleWithFixedDelay(this::flushQuietly, every, every, TimeUnit.NANOSECONDS);
    }

    private void flushQuietly() {
        try {
            flushPending();
        }
        catch (RuntimeException e) {
            log.warn("hibernate-rwsplit: writing waiting positions to consistency store {} failed: {}",
                    store.getClass().getSimpleName(), e.toString());
        }
    }

    private void storeFailed(String operation, RuntimeException e) {
        storeRetryAt = clock.nanoTime() + STORE_RETRY_NANOS;
        synchronized (this) {
            if (!storeDown) {
                storeDown = true;
                log.warn("hibernate-rwsplit: consistency store {} failed to {}: {}; reads of named scopes go to the"
                        + " primary until it answers again, and writes wait to be written then",
                        store.getClass().getSimpleName(), operation, e.toString());
            }
        }
    }

    private synchronized void storeUp() {
        if (storeDown) {
            storeDown = false;
            log.info("hibernate-rwsplit: consistency store {} answers again", store.getClass().getSimpleName());
        }
    }

    /** Stops the background thread, offers the waiting writes to the store a last time, and closes the store. */
    @Override
    public void close() {
        ScheduledExecutorService f;
        synchronized (this) {
            closed = true;
            f = flusher;
        }
        if (f != null) {
            f.shutdownNow();
            try {
                f.awaitTermination(STORE_TIMEOUT.toMillis() * 4, TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!flushPending()) {
                log.warn("hibernate-rwsplit: closing with the writes of {} scopes not written to consistency store {}:"
                        + " other instances may read them from a lagging replica until the replicas apply them",
                        pending.size(), store.getClass().getSimpleName());
            }
        }
        if (ownsStore && store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            }
            catch (Exception e) {
                log.warn("hibernate-rwsplit: closing consistency store failed: {}", e.toString());
            }
        }
    }

    /** Keeps Lettuce out of the class graph unless the redis store is selected. */
    private static final class RedisStores {
        static ConsistencyStore create(ConsistencyConfig config, Clock clock) {
            try {
                return new RedisConsistencyStore(config.redisUrl(), "rwsplit:", config.storeTtl(), STORE_TIMEOUT, clock);
            }
            catch (NoClassDefFoundError e) {
                throw new ConfigurationException("hibernate-rwsplit: setting '"
                        + RwSplitSettings.CONSISTENCY_STORE + "' is 'redis' but Lettuce is not on the class path: add"
                        + " io.lettuce:lettuce-core", e);
            }
            catch (IllegalArgumentException e) {
                throw Settings.invalid(RwSplitSettings.REDIS_URL, config.redisUrl(), "a Redis URI such as"
                        + " redis://127.0.0.1:6379 (" + e.getMessage() + ")");
            }
        }
    }
}
