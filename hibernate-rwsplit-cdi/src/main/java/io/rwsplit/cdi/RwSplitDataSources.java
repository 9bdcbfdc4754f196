package io.rwsplit.cdi;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.agroal.api.transaction.TransactionIntegration;

import io.rwsplit.Durations;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.InvalidSettingException;
import io.rwsplit.internal.config.Secrets;
import io.rwsplit.internal.config.Setting;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.config.UrlSessionProperties;

/**
 * The primary and replica pools of a persistence unit as Agroal {@link AgroalDataSource}s, built from
 * {@code rwsplit.cdi.*} configuration, and the unit properties that hand them to Hibernate. The pools
 * stay the application's: their metrics ({@link AgroalDataSource#getMetrics()}), leak detection and
 * flush operations work as usual.
 * <p>
 * The keys ({@code rwsplit.cdi.primary.url}, {@code rwsplit.cdi.replicas}, ...) are the rows of {@link CdiSettings},
 * documented in {@code docs/cdi.md}; their values are read as the core reads its own (durations as every
 * hibernate-rwsplit duration, see {@link Durations}), and an unknown key or a bad value is refused naming both.
 * <p>
 * With JTA, pass the container's Agroal {@link TransactionIntegration} to {@link #build(Map, TransactionIntegration)}:
 * only the primary pool enlists its connections in JTA transactions. Replica pools never do (their reads
 * are not part of any transaction); the core makes each replica connection read-only while it borrows it.
 */
public final class RwSplitDataSources implements AutoCloseable {

    /** The prefix of every key. */
    public static final String PREFIX = CdiSettings.PREFIX;

    private final AgroalDataSource primary;
    private final Map<String, AgroalDataSource> replicas;

    private RwSplitDataSources(AgroalDataSource primary, Map<String, AgroalDataSource> replicas) {
        this.primary = primary;
        this.replicas = Collections.unmodifiableMap(replicas);
    }

    /** Pools without JTA: the primary takes part in resource-local transactions only. */
    public static RwSplitDataSources build(Map<String, ?> config) {
        return build(config, null);
    }

    /**
     * @param config      the {@code rwsplit.cdi.*} keys (other keys are ignored)
     * @param transactions the JTA integration of the primary pool, or {@code null}
     * @throws IllegalArgumentException naming the key and the value of the first invalid setting (an
     *                                  {@link InvalidSettingException}, as the core's settings are refused)
     */
    public static RwSplitDataSources build(Map<String, ?> config, TransactionIntegration transactions) {
        List<String> names = Settings.names(config.get(CdiSettings.REPLICAS.key()));
        checkKeys(config, names);
        if (names.isEmpty()) {
            throw Settings.invalid(CdiSettings.REPLICAS.key(), config.get(CdiSettings.REPLICAS.key()),
                    "one or more replica names separated by whitespace");
        }
        Duration acquisition = (Duration) parse(CdiSettings.ACQUISITION_TIMEOUT, config);
        Duration leak = (Duration) parse(CdiSettings.LEAK_TIMEOUT, config);
        boolean metrics = (Boolean) parse(CdiSettings.METRICS, config);
        String user = (String) parse(CdiSettings.PRIMARY_USER, config);
        String password = (String) parse(CdiSettings.PRIMARY_PASSWORD, config);
        String primaryUrl = (String) parse(CdiSettings.PRIMARY_URL, config);
        String primarySql = (String) parse(CdiSettings.PRIMARY_INITIAL_SQL, config);

        List<AutoCloseable> built = new ArrayList<>();
        try {
            AgroalDataSource primary = pool(config, CdiSettings.PRIMARY, null, null, null, null, acquisition, leak,
                    metrics, transactions);
            built.add(primary);
            Map<String, AgroalDataSource> replicas = new LinkedHashMap<>();
            for (String name : names) {
                if (replicas.containsKey(name)) {
                    throw Settings.invalid(CdiSettings.REPLICAS.key(), config.get(CdiSettings.REPLICAS.key()),
                            "unique replica names, but '" + name + "' appears twice");
                }
                AgroalDataSource replica = pool(config, CdiSettings.REPLICA + name + ".", user, password, primaryUrl,
                        primarySql, acquisition, leak, metrics, null);
                built.add(replica);
                replicas.put(name, replica);
            }
            return new RwSplitDataSources(primary, replicas);
        }
        catch (RuntimeException e) {
            closeAll(built);
            throw e;
        }
    }

    /**
     * A pool of {@code prefix}'s settings. A replica's ({@code primaryUrl} given) runs the primary's initial SQL unless
     * it has its own, and its URL takes the session properties of the primary's (the core's allow-list: time zone,
     * session variables, character set; never host, credentials or routing), unless it sets them itself: replica
     * sessions start like the primary's.
     */
    private static AgroalDataSource pool(Map<String, ?> config, String prefix, String defaultUser, String defaultPassword,
                                         String primaryUrl, String primarySql, Duration acquisition, Duration leak,
                                         boolean metrics, TransactionIntegration transactions) {
        String given = (String) CdiSettings.REPLICA_URL.parse(prefix + "url", config.get(prefix + "url"));
        if (given == null || !given.startsWith("jdbc:")) {
            throw Settings.invalid(prefix + "url", given, "a JDBC URL");
        }
        String url = primaryUrl == null ? given : UrlSessionProperties.with(given,
                UrlSessionProperties.inherited(primaryUrl, given, new java.util.Properties()));
        String ownSql = (String) CdiSettings.PRIMARY_INITIAL_SQL.parse(prefix + "initial_sql",
                config.get(prefix + "initial_sql"));
        String initialSql = ownSql != null ? ownSql : primarySql;
        String user = orDefault(CdiSettings.REPLICA_USER.parse(prefix + "user", config.get(prefix + "user")), defaultUser);
        String password = orDefault(CdiSettings.REPLICA_PASSWORD.parse(prefix + "password", config.get(prefix + "password")),
                defaultPassword);
        int maxSize = (Integer) CdiSettings.REPLICA_MAX_SIZE.parse(prefix + "max_size", config.get(prefix + "max_size"));
        AgroalDataSourceConfigurationSupplier supplier = new AgroalDataSourceConfigurationSupplier()
                .metricsEnabled(metrics)
                .connectionPoolConfiguration(pool -> {
                    pool.maxSize(maxSize).acquisitionTimeout(acquisition).leakTimeout(leak);
                    if (transactions != null) {
                        pool.transactionIntegration(transactions);
                    }
                    return pool.connectionFactoryConfiguration(factory -> {
                        // replica connections are made read-only per borrow by the core: an Agroal read-only pool
                        // would refuse the setReadOnly(false) the core sends when it gives a connection back
                        factory.jdbcUrl(url);
                        if (initialSql != null) {
                            factory.initialSql(initialSql);
                        }
                        if (user != null) {
                            factory.principal(new NamePrincipal(user));
                        }
                        if (password != null) {
                            factory.credential(new SimplePassword(password));
                        }
                        return factory;
                    });
                });
        try {
            return AgroalDataSource.from(supplier);
        }
        catch (SQLException e) {
            throw new IllegalStateException("hibernate-rwsplit-cdi: cannot create the pool of '" + prefix + "url' ("
                    + Secrets.scrub(given) + "): " + Secrets.scrub(e.getMessage()), e);
        }
    }

    /** The primary pool. */
    public AgroalDataSource primary() {
        return primary;
    }

    /** The replica pools by name, in configuration order. */
    public Map<String, AgroalDataSource> replicas() {
        return replicas;
    }

    /**
     * The unit properties that use these pools: the primary as {@code hibernate.connection.datasource},
     * the replicas as {@code hibernate.rwsplit.replicas} with one {@code hibernate.rwsplit.replica.NAME.datasource} each.
     */
    public Map<String, Object> properties() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("hibernate.connection.datasource", primary);
        properties.put(RwSplitSettings.REPLICAS, String.join(" ", replicas.keySet()));
        replicas.forEach((name, ds) -> properties.put(RwSplitSettings.REPLICA_PREFIX + name + ".datasource", ds));
        return properties;
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(replicas.values());
        all.add(primary);
        closeAll(all);
    }

    private static void closeAll(List<? extends AutoCloseable> pools) {
        for (AutoCloseable pool : pools) {
            try {
                pool.close();
            }
            catch (Exception ignored) {
                // closing on shutdown or after a failed start: nothing more to do
            }
        }
    }

    // ------------------------------------------------------------------ configuration

    /** Every key under {@code rwsplit.cdi.} is one of {@link CdiSettings}, a replica's naming a listed replica. */
    private static void checkKeys(Map<String, ?> config, List<String> replicaNames) {
        Settings.refuseUnknownKeys(config, PREFIX, key -> {
            if (CdiSettings.GLOBAL_KEYS.contains(key)) {
                return true;
            }
            if (key.startsWith(CdiSettings.PRIMARY)) {
                return CdiSettings.POOL_OPTIONS.contains(key.substring(CdiSettings.PRIMARY.length()));
            }
            if (key.startsWith(CdiSettings.REPLICA)) {
                String tail = key.substring(CdiSettings.REPLICA.length());
                int dot = tail.lastIndexOf('.');
                return dot > 0 && replicaNames.contains(tail.substring(0, dot))
                        && CdiSettings.POOL_OPTIONS.contains(tail.substring(dot + 1));
            }
            return false;
        }, CdiSettings.GLOBAL_KEYS + ", " + CdiSettings.PRIMARY + CdiSettings.POOL_OPTIONS + " and " + CdiSettings.REPLICA
                + "NAME." + CdiSettings.POOL_OPTIONS + " for a NAME listed in '" + CdiSettings.REPLICAS.key() + "' "
                + replicaNames);
    }

    private static Object parse(Setting row, Map<String, ?> config) {
        return row.parse(row.key(), config.get(row.key()));
    }

    private static String orDefault(Object text, String defaultValue) {
        return text == null ? defaultValue : (String) text;
    }
}
