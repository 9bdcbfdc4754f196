package io.rwsplit.cdi;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.agroal.api.transaction.TransactionIntegration;

import io.rwsplit.Durations;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.config.Secrets;

/**
 * The primary and replica pools of a persistence unit as Agroal {@link AgroalDataSource}s, built from
 * {@code rwsplit.cdi.*} configuration, and the unit properties that hand them to Hibernate. The pools
 * stay the application's: their metrics ({@link AgroalDataSource#getMetrics()}), leak detection and
 * flush operations work as usual.
 * <p>
 * Keys (durations as every hibernate-rwsplit duration, see {@link Durations}: {@code PT30S}, {@code 250ms},
 * {@code 1.5s}, {@code 2m}, {@code 1h}; a bare number other than {@code 0} and a negative duration are refused):
 * <ul>
 *   <li>{@code rwsplit.cdi.primary.url} (required), {@code .user}, {@code .password}, {@code .max_size} (default 10);</li>
 *   <li>{@code rwsplit.cdi.replicas}: replica names separated by whitespace (required);</li>
 *   <li>{@code rwsplit.cdi.replica.NAME.url} (required), {@code .user}, {@code .password} (default: the
 *       primary's), {@code .max_size} (default 10);</li>
 *   <li>{@code rwsplit.cdi.acquisition_timeout} (default {@code PT5S}), {@code rwsplit.cdi.leak_timeout}
 *       (default {@code 0}: leak detection off) and {@code rwsplit.cdi.metrics} ({@code true}/{@code false},
 *       default {@code false}) for every pool.</li>
 * </ul>
 * With JTA, pass the container's Agroal {@link TransactionIntegration} to {@link #build(Map, TransactionIntegration)}:
 * only the primary pool enlists its connections in JTA transactions. Replica pools never do (their reads
 * are not part of any transaction); the core makes each replica connection read-only while it borrows it.
 */
public final class RwSplitDataSources implements AutoCloseable {

    /** The prefix of every key. */
    public static final String PREFIX = "rwsplit.cdi.";

    private static final Set<String> POOL_OPTIONS = Set.of("url", "user", "password", "max_size");
    private static final Set<String> GLOBAL_KEYS = Set.of(PREFIX + "replicas", PREFIX + "acquisition_timeout",
            PREFIX + "leak_timeout", PREFIX + "metrics");

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
     * @throws IllegalArgumentException naming the key and the value of the first invalid setting
     */
    public static RwSplitDataSources build(Map<String, ?> config, TransactionIntegration transactions) {
        checkKeys(config);
        String replicaList = string(config, PREFIX + "replicas", null);
        if (replicaList == null) {
            throw new IllegalArgumentException("hibernate-rwsplit-cdi: setting '" + PREFIX
                    + "replicas' is missing: name at least one replica");
        }
        Duration acquisition = duration(config, PREFIX + "acquisition_timeout", Duration.ofSeconds(5));
        Duration leak = duration(config, PREFIX + "leak_timeout", Duration.ZERO);
        boolean metrics = bool(config, PREFIX + "metrics");
        String user = string(config, PREFIX + "primary.user", null);
        String password = string(config, PREFIX + "primary.password", null);

        List<AutoCloseable> built = new ArrayList<>();
        try {
            AgroalDataSource primary = pool(config, PREFIX + "primary.", null, null, acquisition, leak, metrics,
                    transactions);
            built.add(primary);
            Map<String, AgroalDataSource> replicas = new LinkedHashMap<>();
            for (String name : replicaList.trim().split("\\s+")) {
                if (replicas.containsKey(name)) {
                    throw new IllegalArgumentException("hibernate-rwsplit-cdi: replica '" + name + "' appears twice in '"
                            + PREFIX + "replicas' ('" + replicaList + "')");
                }
                AgroalDataSource replica = pool(config, PREFIX + "replica." + name + ".", user, password, acquisition,
                        leak, metrics, null);
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

    private static AgroalDataSource pool(Map<String, ?> config, String prefix, String defaultUser, String defaultPassword,
                                         Duration acquisition, Duration leak, boolean metrics,
                                         TransactionIntegration transactions) {
        String url = string(config, prefix + "url", null);
        if (url == null || !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("hibernate-rwsplit-cdi: invalid value '" + Secrets.scrub(url) + "' for setting '" + prefix
                    + "url': expected a JDBC URL");
        }
        String user = string(config, prefix + "user", defaultUser);
        String password = string(config, prefix + "password", defaultPassword);
        int maxSize = integer(config, prefix + "max_size", 10);
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
                    + Secrets.scrub(url) + "): " + Secrets.scrub(e.getMessage()), e);
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

    private static void checkKeys(Map<String, ?> config) {
        Set<String> replicaNames = new TreeSet<>();
        String list = string(config, PREFIX + "replicas", "");
        for (String name : list.trim().split("\\s+")) {
            if (!name.isEmpty()) {
                replicaNames.add(name);
            }
        }
        for (String key : config.keySet()) {
            if (!key.startsWith(PREFIX) || GLOBAL_KEYS.contains(key)) {
                continue;
            }
            String rest = key.substring(PREFIX.length());
            boolean known;
            if (rest.startsWith("primary.")) {
                known = POOL_OPTIONS.contains(rest.substring("primary.".length()));
            }
            else if (rest.startsWith("replica.")) {
                String tail = rest.substring("replica.".length());
                int dot = tail.lastIndexOf('.');
                known = dot > 0 && replicaNames.contains(tail.substring(0, dot)) && POOL_OPTIONS.contains(tail.substring(dot + 1));
            }
            else {
                known = false;
            }
            if (!known) {
                throw new IllegalArgumentException("hibernate-rwsplit-cdi: unknown setting '" + key + "' (value '"
                        + config.get(key) + "'); known: " + new TreeSet<>(GLOBAL_KEYS) + ", " + PREFIX + "primary."
                        + POOL_OPTIONS + " and " + PREFIX + "replica.NAME." + POOL_OPTIONS + " for a NAME listed in '"
                        + PREFIX + "replicas' " + replicaNames);
            }
        }
    }

    private static String string(Map<String, ?> config, String key, String defaultValue) {
        Object value = config.get(key);
        if (value == null || value.toString().isBlank()) {
            return defaultValue;
        }
        return value.toString().trim();
    }

    private static int integer(Map<String, ?> config, String key, int defaultValue) {
        String text = string(config, key, null);
        if (text == null) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= 1) {
                return value;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("hibernate-rwsplit-cdi: invalid value '" + text + "' for setting '" + key
                + "': expected an integer of at least 1");
    }

    private static boolean bool(Map<String, ?> config, String key) {
        String text = string(config, key, "false");
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("hibernate-rwsplit-cdi: invalid value '" + text + "' for setting '" + key
                + "': expected true or false");
    }

    /** A duration in the core's one syntax ({@link Durations}), not negative. */
    private static Duration duration(Map<String, ?> config, String key, Duration defaultValue) {
        Object raw = config.get(key);
        String text = string(config, key, null);
        if (raw == null || text == null) {
            return defaultValue;
        }
        Duration value = raw instanceof Duration ? (Duration) raw : Durations.valueOrNull(text);
        if (value != null && !value.isNegative()) {
            return value;
        }
        throw new IllegalArgumentException("hibernate-rwsplit-cdi: invalid value '" + raw + "' for setting '" + key
                + "': expected " + Durations.SYNTAX + ", not negative");
    }
}
