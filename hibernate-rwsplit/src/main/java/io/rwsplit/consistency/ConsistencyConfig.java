package io.rwsplit.consistency;

import static io.rwsplit.RwSplitSettings.CAUSAL_WAIT_TIMEOUT;
import static io.rwsplit.RwSplitSettings.CONSISTENCY;
import static io.rwsplit.RwSplitSettings.CONSISTENCY_SCOPE;
import static io.rwsplit.RwSplitSettings.CONSISTENCY_STORE;
import static io.rwsplit.RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES;
import static io.rwsplit.RwSplitSettings.CONSISTENCY_STORE_TTL;
import static io.rwsplit.RwSplitSettings.READ_YOUR_WRITES;
import static io.rwsplit.RwSplitSettings.READ_YOUR_WRITES_WINDOW;
import static io.rwsplit.RwSplitSettings.REDIS_URL;
import static io.rwsplit.RwSplitSettings.SCOPE_RESOLVER;

import java.time.Duration;
import java.util.Map;

import io.rwsplit.Consistency;
import io.rwsplit.config.Settings;
import io.rwsplit.spi.ConsistencyStore;
import io.rwsplit.spi.ScopeResolver;

/**
 * The validated consistency settings of a persistence unit. Every rule that fails names the key and the value.
 *
 * @param defaultLevel      the level sessions start with
 * @param mode              how READ_YOUR_WRITES is honoured
 * @param window            time mode: primary until last commit + window
 * @param causalWaitTimeout GTID mode: longest wait on a replica
 * @param store             {@code memory}, {@code redis}, a class name or a {@link ConsistencyStore}
 * @param redisUrl          Redis URI of the {@code redis} store, or {@code null}
 * @param storeTtl          how long a scope's last write is kept
 * @param maxScopes         bound of the memory store
 * @param scopeResolver     names scopes of new sessions, or {@code null}
 * @param scope             whose writes sessions without a named scope see
 * @param unitName          the persistence unit's name, part of the shared store's key of the unit position
 */
public record ConsistencyConfig(Consistency defaultLevel, ReadYourWritesMode mode, Duration window,
                                Duration causalWaitTimeout, Object store, String redisUrl, Duration storeTtl,
                                int maxScopes, ScopeResolver scopeResolver, ConsistencyScope scope, String unitName) {

    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(2);
    public static final Duration DEFAULT_CAUSAL_WAIT_TIMEOUT = Duration.ofMillis(200);
    public static final Duration DEFAULT_STORE_TTL = Duration.ofMinutes(1);
    public static final int DEFAULT_MAX_SCOPES = 100_000;

    /** Reads and validates the consistency settings. */
    public static ConsistencyConfig from(Map<String, Object> settings) {
        Settings s = new Settings(settings);
        Consistency level = level(s.raw(CONSISTENCY));
        ReadYourWritesMode mode = s.enumValue(READ_YOUR_WRITES, ReadYourWritesMode.class, ReadYourWritesMode.AUTO);
        Duration window = s.duration(READ_YOUR_WRITES_WINDOW, DEFAULT_WINDOW);
        Duration timeout = s.duration(CAUSAL_WAIT_TIMEOUT, DEFAULT_CAUSAL_WAIT_TIMEOUT);
        Duration ttl = s.duration(CONSISTENCY_STORE_TTL, DEFAULT_STORE_TTL);
        if (ttl.isZero()) {
            throw Settings.invalid(CONSISTENCY_STORE_TTL, s.raw(CONSISTENCY_STORE_TTL), "a positive duration");
        }
        int maxScopes = s.integer(CONSISTENCY_STORE_MAX_SCOPES, DEFAULT_MAX_SCOPES, 1);
        Object store = s.raw(CONSISTENCY_STORE);
        if (store == null || store instanceof String text && text.isBlank()) {
            store = "memory";
        }
        String redisUrl = s.string(REDIS_URL, null);
        if (store instanceof String name) {
            store = name.trim();
            if ("redis".equalsIgnoreCase(name.trim()) && redisUrl == null) {
                throw Settings.invalid(REDIS_URL, null, "a Redis URI such as redis://127.0.0.1:6379 because '"
                        + CONSISTENCY_STORE + "' is 'redis'");
            }
        }
        else if (!(store instanceof ConsistencyStore)) {
            throw Settings.invalid(CONSISTENCY_STORE, store, "memory, redis, a class name or an io.rwsplit.spi.ConsistencyStore");
        }
        ScopeResolver resolver = instance(s, SCOPE_RESOLVER, ScopeResolver.class);
        ConsistencyScope scope = s.enumValue(CONSISTENCY_SCOPE, ConsistencyScope.class, ConsistencyScope.UNIT);
        return new ConsistencyConfig(level, mode, window, timeout, store, redisUrl, ttl, maxScopes, resolver, scope,
                unitName(s));
    }

    /** For the startup line: level, scope, how read-your-writes is honoured, the store. */
    public String describe() {
        String how = mode == ReadYourWritesMode.TIME ? "time, window " + window.toMillis() + " ms"
                : mode.name().toLowerCase(java.util.Locale.ROOT) + ", causal_wait_timeout " + causalWaitTimeout.toMillis()
                + " ms" + (mode == ReadYourWritesMode.AUTO ? " (gtid on MariaDB/MySQL, else time window "
                + window.toMillis() + " ms)" : "");
        String storeName = store instanceof String name ? name : store.getClass().getName();
        return "consistency " + defaultLevel + ", scope " + (scopeResolver != null ? "resolver " + scopeResolver.getClass()
                .getName() + " (else " + scope.name().toLowerCase(java.util.Locale.ROOT) + ")"
                : scope.name().toLowerCase(java.util.Locale.ROOT)) + ", read_your_writes " + how + ", store " + storeName;
    }

    /** The persistence unit's name (JPA), else the session factory's name, else {@code default}. */
    private static String unitName(Settings s) {
        String name = s.string("hibernate.persistenceUnitName", null);
        if (name == null) {
            name = s.string("hibernate.session_factory_name", "default");
        }
        return name;
    }

    private static Consistency level(Object value) {
        if (value == null || value instanceof String text && text.isBlank()) {
            return Consistency.readYourWrites();
        }
        if (value instanceof Consistency c) {
            return c;
        }
        try {
            return Consistency.parse(value.toString());
        }
        catch (IllegalArgumentException e) {
            throw Settings.invalid(CONSISTENCY, value,
                    "strong, read_your_writes, bounded_staleness:<duration such as PT0.5S> or eventual");
        }
    }

    /** An instance given in the settings map or a class name with a public no-argument constructor; null if unset. */
    static <T> T instance(Settings s, String key, Class<T> type) {
        Object value = s.raw(key);
        if (value == null || value instanceof String text && text.isBlank()) {
            return null;
        }
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        Object created;
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Class<?> cls = value instanceof Class<?> c ? c : Class.forName(value.toString().trim(), true,
                    loader != null ? loader : ConsistencyConfig.class.getClassLoader());
            created = cls.getConstructor().newInstance();
        }
        catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            throw Settings.invalid(key, value, "an " + type.getName() + " instance or the name of a class with a public"
                    + " no-argument constructor (" + e + ")");
        }
        if (!type.isInstance(created)) {
            throw Settings.invalid(key, value, "a class implementing " + type.getName());
        }
        return type.cast(created);
    }
}
