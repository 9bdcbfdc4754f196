package io.rwsplit.internal.consistency;

import java.time.Duration;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.ConfigurationException;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.ConsistencyStore;

/**
 * The consistency machinery one persistence unit shares: settings, the store, the scope resolver, the
 * clock. Wraps the store so that an unreachable store is reported once (and once when it is back), and
 * is not asked again for a second after a failure. Thread-safe.
 */
public final class ConsistencyRuntime implements AutoCloseable {

    /** Named as before the package moved under internal, like the decision log {@code io.rwsplit.route}. */
    static final Logger log = LoggerFactory.getLogger("io.rwsplit.consistency");

    /** How long store commands may take before the scope counts as unknown. */
    static final Duration STORE_TIMEOUT = Duration.ofMillis(500);
    private static final long STORE_RETRY_NANOS = 1_000_000_000L;

    private final ConsistencyConfig config;
    private final Clock clock;
    private final ConsistencyStore store;
    private final boolean ownsStore;
    private final boolean sharedStore;
    private final long windowMicros;
    private final long waitMicros;
    private volatile boolean storeDown;
    private volatile long storeRetryAt;

    public ConsistencyRuntime(ConsistencyConfig config, Clock clock, ConsistencyStore store, boolean ownsStore) {
        this.config = config;
        this.clock = clock;
        this.store = store;
        this.ownsStore = ownsStore;
        this.sharedStore = !(store instanceof InMemoryConsistencyStore);
        this.windowMicros = config.window().toNanos() / 1_000;
        this.waitMicros = config.causalWaitTimeout().toNanos() / 1_000;
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
            return new ConsistencyRuntime(config, clock, RedisStores.create(config), true);
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
     * The scope's last writes; throws when the store cannot answer (then the scope is unknown).
     */
    ConsistencyToken read(String key) {
        checkRetry();
        try {
            ConsistencyToken token = store.read(key);
            if (storeDown) {
                storeUp();
            }
            return token;
        }
        catch (RuntimeException e) {
            storeFailed("read", e);
            throw e;
        }
    }

    /** Records a write; a failure is reported (once) and otherwise ignored: the session keeps its own write. */
    void record(String key, ConsistencyToken write) {
        if (storeDown && clock.nanoTime() - storeRetryAt < 0) {
            return; // reported already; the session keeps its own write
        }
        try {
            store.record(key, write);
            if (storeDown) {
                storeUp();
            }
        }
        catch (RuntimeException e) {
            storeFailed("record", e);
        }
    }

    private void checkRetry() {
        if (storeDown && clock.nanoTime() - storeRetryAt < 0) {
            throw new IllegalStateException("consistency store unavailable (retrying in at most a second)");
        }
    }

    private void storeFailed(String operation, RuntimeException e) {
        storeRetryAt = clock.nanoTime() + STORE_RETRY_NANOS;
        synchronized (this) {
            if (!storeDown) {
                storeDown = true;
                log.warn("hibernate-rwsplit: consistency store {} failed to {}: {}; reads of named scopes go to the"
                        + " primary until it answers again", store.getClass().getSimpleName(), operation, e.toString());
            }
        }
    }

    private synchronized void storeUp() {
        if (storeDown) {
            storeDown = false;
            log.info("hibernate-rwsplit: consistency store {} answers again", store.getClass().getSimpleName());
        }
    }

    @Override
    public void close() {
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
        static ConsistencyStore create(ConsistencyConfig config) {
            try {
                return new RedisConsistencyStore(config.redisUrl(), "rwsplit:", config.storeTtl(), STORE_TIMEOUT);
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
