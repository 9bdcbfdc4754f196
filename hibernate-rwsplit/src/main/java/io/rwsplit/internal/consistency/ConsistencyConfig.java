package io.rwsplit.internal.consistency;

import io.rwsplit.RwSplitSettings;

import static io.rwsplit.RwSplitSettings.CONSISTENCY_STORE;
import static io.rwsplit.RwSplitSettings.REDIS_URL;

import java.time.Duration;
import java.util.Map;

import io.rwsplit.Consistency;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.config.SettingsTable;
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
 * @param lostWrites        what a read does that must see a write a failover lost
 * @param tokenSecret       the key that signs consistency tokens (UTF-8, at least 32 bytes), or null: a random one
 */
public record ConsistencyConfig(Consistency defaultLevel, ReadYourWritesMode mode, Duration window,
                                Duration causalWaitTimeout, Object store, String redisUrl, Duration storeTtl,
                                int maxScopes, ScopeResolver scopeResolver, ConsistencyScope scope, String unitName,
                                LostWriteReads lostWrites, byte[] tokenSecret) {

    /** Reads and validates the consistency settings. */
    public static ConsistencyConfig from(Map<String, Object> settings) {
        return from(new Settings(settings));
    }

    /** Reads and validates the consistency settings. */
    public static ConsistencyConfig from(Settings s) {
        Consistency level = s.consistency(SettingsTable.CONSISTENCY);
        ReadYourWritesMode mode = s.enumValue(SettingsTable.READ_YOUR_WRITES, ReadYourWritesMode.class);
        Object store = s.raw(CONSISTENCY_STORE);
        if (store == null || store instanceof String text && text.isBlank()) {
            store = SettingsTable.CONSISTENCY_STORE.defaultValue();
        }
        String redisUrl = s.string(SettingsTable.REDIS_URL);
        ScopeResolver resolver = s.instance(SettingsTable.SCOPE_RESOLVER, ScopeResolver.class);
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
        return new ConsistencyConfig(level, mode, s.duration(SettingsTable.READ_YOUR_WRITES_WINDOW),
                s.duration(SettingsTable.CAUSAL_WAIT_TIMEOUT), store, redisUrl, s.duration(SettingsTable.CONSISTENCY_STORE_TTL),
                s.integer(SettingsTable.CONSISTENCY_STORE_MAX_SCOPES), resolver,
                s.enumValue(SettingsTable.CONSISTENCY_SCOPE, ConsistencyScope.class), unitName(s),
                s.enumValue(SettingsTable.LOST_WRITES, LostWriteReads.class), tokenSecret(s));
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

    private static byte[] tokenSecret(Settings s) {
        String secret = s.string(SettingsTable.TOKEN_SECRET);
        if (secret == null) {
            return null;
        }
        byte[] bytes = secret.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (bytes.length < io.rwsplit.web.Signing.MIN_SECRET_BYTES) {
            throw Settings.invalid(RwSplitSettings.TOKEN_SECRET, secret, "at least "
                    + io.rwsplit.web.Signing.MIN_SECRET_BYTES + " bytes of key, the same on every instance");
        }
        return bytes;
    }

    /** The persistence unit's name (JPA), else the session factory's name, else {@code default}. */
    private static String unitName(Settings s) {
        String name = s.string("hibernate.persistenceUnitName", null);
        if (name == null) {
            name = s.string("hibernate.session_factory_name", "default");
        }
        return name;
    }
}
