package io.rwsplit.internal.config;

import static io.rwsplit.RwSplitSettings.POOL_PREFIX;
import static io.rwsplit.RwSplitSettings.REPLICAS;
import static io.rwsplit.RwSplitSettings.REPLICA_PREFIX;
import static io.rwsplit.RwSplitSettings.TENANTS;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.ConfigurationException;
import io.rwsplit.RwSplitSettings;


/**
 * The validated, immutable configuration of one replica set (the replicas of one primary).
 * Built once at startup by {@link #from(Map)}; every rule that fails names the key and the value.
 *
 * @param replicas             the replicas, in configuration order (never empty)
 * @param poolProperties       HikariCP properties for replica pools
 * @param loadBalancer         the balancer name
 * @param fallback             what reads do when no replica is healthy
 * @param health               replica health, lag probes and primary circuit breaker
 * @param queryShapes          how many query shapes the statistics report
 * @param timeSample           the query-shape statistics time one execution in this many (after each shape's first)
 * @param rules                the rules by query shape, in the order of their names
 * @param auditSample          the stale-read audit checks one replica read in this many (0: none)
 */
public record RwSplitConfig(List<ReplicaConfig> replicas, Properties poolProperties, String loadBalancer,
                            Fallback fallback, io.rwsplit.internal.config.HealthConfig health, int queryShapes,
                            int timeSample, List<ShapeRule> rules, int auditSample) {

    private static final Logger log = LoggerFactory.getLogger(RwSplitConfig.class);

    public RwSplitConfig {
        replicas = List.copyOf(replicas);
    }

    /** Whether the settings switch the module on for a single (non multi-tenant) primary. */
    public static boolean isActive(Map<String, Object> settings) {
        // present but blank is a misconfiguration reported by from(), not "off"
        return ReplicaList.isPresent(settings, REPLICAS);
    }

    /** Whether the settings switch on the multi-tenant variant. */
    public static boolean isMultiTenantActive(Map<String, Object> settings) {
        return settings.get(TENANTS) != null;
    }

    /** Reads and validates the configuration of the single-primary variant. */
    public static RwSplitConfig from(Map<String, Object> settings) {
        Settings.check(settings);
        Settings s = new Settings(settings);
        return fromReplicaList(s, REPLICAS, REPLICA_PREFIX, primaryUser(settings), primaryPassword(settings),
                primaryUrl(settings));
    }

    /** The primary's JDBC URL when the unit gives one ({@code null} for a DataSource). */
    public static String primaryUrl(Map<String, Object> settings) {
        for (String key : List.of("jakarta.persistence.jdbc.url", "hibernate.connection.url", "javax.persistence.jdbc.url")) {
            Object v = settings.get(key);
            if (v != null && !v.toString().isBlank()) {
                return v.toString().trim();
            }
        }
        return null;
    }

    /**
     * Reads a replica list (from {@code listKey}) whose per-replica options live under {@code optionPrefix}.
     * Used for the single primary and for each tenant.
     */
    public static RwSplitConfig fromReplicaList(Settings s, String listKey, String optionPrefix,
                                                String defaultUser, String defaultPassword) {
        return fromReplicaList(s, listKey, optionPrefix, defaultUser, defaultPassword, null);
    }

    /**
     * As {@link #fromReplicaList(Settings, String, String, String, String)}; a replica URL that names the same
     * server and database as {@code primaryUrl} (when given) fails.
     */
    public static RwSplitConfig fromReplicaList(Settings s, String listKey, String optionPrefix,
                                                String defaultUser, String defaultPassword, String primaryUrl) {
        List<String> entries = ReplicaList.entries(s, listKey);
        if (entries.isEmpty()) {
            throw new ConfigurationException(
                    "hibernate-rwsplit: setting '" + listKey + "' is empty: list at least one replica JDBC URL");
        }
        String list = String.join(" ", entries);
        Map<String, String> urls = new LinkedHashMap<>();
        int position = 0;
        for (String entry : entries) {
            position++;
            String name;
            String url;
            if (entry.startsWith("jdbc:")) {
                name = "replica" + position;
                url = entry;
            }
            else {
                int eq = entry.indexOf('=');
                name = eq < 0 ? entry : entry.substring(0, eq);
                url = eq < 0 ? null : entry.substring(eq + 1);
                if (url != null && !url.startsWith("jdbc:")) {
                    throw Settings.invalid(listKey, entry, "a JDBC URL starting with 'jdbc:' after '" + name + "='");
                }
            }
            if (!validName(name)) {
                throw Settings.invalid(listKey, entry,
                        "replica entries of the form 'jdbc:...', 'name=jdbc:...' or 'name' where a name uses letters, digits, '_' and '-'");
            }
            if (urls.containsKey(name)) {
                throw Settings.invalid(listKey, list, "unique replica names, but '" + name + "' appears twice");
            }
            urls.put(name, url);
        }

        // per-replica options must name a listed replica (Settings.check refuses an unknown option)
        String prefix = optionPrefix;
        for (String key : keysWithPrefix(s, prefix)) {
            String rest = key.substring(prefix.length());
            int dot = rest.lastIndexOf('.');
            String name = dot < 0 ? rest : rest.substring(0, dot);
            if (!urls.containsKey(name)) {
                throw new ConfigurationException("hibernate-rwsplit: setting '" + key
                        + "' names replica '" + name + "', which is not listed in '" + listKey + "' (" + urls.keySet() + ")");
            }
        }

        List<ReplicaConfig> replicas = new ArrayList<>();
        for (Map.Entry<String, String> e : urls.entrySet()) {
            String name = e.getKey();
            String p = prefix + name + ".";
            String url = e.getValue() != null ? e.getValue() : s.string(SettingsTable.REPLICA_URL, p + "url");
            Object dsValue = s.raw(p + "datasource");
            DataSource dataSource = null;
            if (dsValue != null) {
                if (!(dsValue instanceof DataSource ds)) {
                    throw Settings.invalid(p + "datasource", dsValue, "a javax.sql.DataSource object in the settings map");
                }
                dataSource = ds;
                if (url != null) {
                    throw new ConfigurationException("hibernate-rwsplit: replica '" + name
                            + "' has both a URL ('" + url + "') and '" + p + "datasource': give one of them");
                }
            }
            else if (url == null) {
                throw new ConfigurationException("hibernate-rwsplit: replica '" + name
                        + "' listed in '" + listKey + "' has no URL: set '" + p + "url' or '" + p + "datasource'");
            }
            else {
                checkUrl(e.getValue() != null ? listKey : p + "url", name, url, primaryUrl,
                        s.raw(POOL_PREFIX + "driverClassName") != null);
            }
            replicas.add(new ReplicaConfig(name, url,
                    s.string(p + "user", defaultUser), s.string(p + "password", defaultPassword),
                    s.integer(SettingsTable.REPLICA_WEIGHT, p + "weight"), s.integer(SettingsTable.REPLICA_TIER, p + "tier"),
                    dataSource));
        }

        Properties pool = new Properties();
        for (String key : keysWithPrefix(s, POOL_PREFIX)) {
            pool.put(key.substring(POOL_PREFIX.length()), String.valueOf(s.raw(key)));
        }
        List<ShapeRule> rules = ShapeRule.from(s);
        checkTiers(rules, replicas);
        String balancer = s.choice(SettingsTable.LOAD_BALANCER);
        warnIfWeightsUnused(s, prefix, replicas, balancer);
        return new RwSplitConfig(replicas, pool, balancer,
                s.enumValue(SettingsTable.FALLBACK, Fallback.class), io.rwsplit.internal.config.HealthConfig.from(s),
                s.integer(SettingsTable.QUERY_SHAPES), s.integer(SettingsTable.TIME_SAMPLE), rules,
                s.integer(SettingsTable.AUDIT_SAMPLE));
    }

    /**
     * Weights set while the balancer is not {@code weighted} (the only one that reads them) have no effect: one WARN
     * names them with their values and the balancer, as settings of ours are named while the module is off.
     */
    private static void warnIfWeightsUnused(Settings s, String prefix, List<ReplicaConfig> replicas, String balancer) {
        if (balancer.equals("weighted")) {
            return;
        }
        Map<String, Integer> weights = new LinkedHashMap<>();
        for (ReplicaConfig replica : replicas) {
            String key = prefix + replica.name() + ".weight";
            Object given = s.raw(key);
            if (given != null && !given.toString().isBlank()) {
                weights.put(key, replica.weight());
            }
        }
        if (!weights.isEmpty()) {
            Object chosen = s.raw(RwSplitSettings.LOAD_BALANCER);
            boolean byDefault = chosen == null || chosen.toString().isBlank();
            log.warn("hibernate-rwsplit: replica weights {} are ignored: setting '{}' is '{}'{}, which does not use"
                    + " weights; set it to 'weighted' to use them", weights, RwSplitSettings.LOAD_BALANCER, balancer,
                    byDefault ? " (the default)" : "");
        }
    }

    /** A rule's tier must be one some replica has: else it fails naming the rule's route and the replicas' tiers. */
    private static void checkTiers(List<ShapeRule> rules, List<ReplicaConfig> replicas) {
        for (ShapeRule rule : rules) {
            if (rule.tier() == 0 || replicas.stream().anyMatch(r -> r.tier() == rule.tier())) {
                continue;
            }
            String value = "tier:" + rule.tier();
            String tiers = replicas.stream().map(r -> r.name() + " tier " + r.tier())
                    .collect(java.util.stream.Collectors.joining(", "));
            throw new io.rwsplit.InvalidSettingException(rule.routeKey(), value, "hibernate-rwsplit: invalid value '"
                    + value + "' for setting '" + rule.routeKey() + "': no replica has tier " + rule.tier() + " ("
                    + (tiers.isEmpty() ? "no replicas" : tiers) + ")", "the tier of a listed replica");
        }
    }

    public static String primaryUser(Map<String, Object> settings) {
        Object v = settings.get("jakarta.persistence.jdbc.user");
        if (v == null) {
            v = settings.get("hibernate.connection.username");
        }
        if (v == null) {
            v = settings.get("hibernate.connection.user");
        }
        return v == null ? null : v.toString();
    }

    public static String primaryPassword(Map<String, Object> settings) {
        Object v = settings.get("jakarta.persistence.jdbc.password");
        if (v == null) {
            v = settings.get("hibernate.connection.password");
        }
        return v == null ? null : v.toString();
    }

    /** A replica URL must be well formed, accepted by a driver, and not the primary's. */
    private static void checkUrl(String key, String name, String url, String primaryUrl, boolean driverClassGiven) {
        try {
            JdbcUrls.target(url);
        }
        catch (IllegalArgumentException e) {
            throw Settings.invalid(key, url, "a JDBC URL such as jdbc:mariadb://host:3306/db (" + e.getMessage() + ")");
        }
        if (!driverClassGiven && !JdbcUrls.driverAccepts(url)) {
            throw Settings.invalid(key, url, "a JDBC URL that a driver on the class path accepts (no driver does; check"
                    + " the spelling, or set '" + POOL_PREFIX + "driverClassName')");
        }
        if (primaryUrl != null && JdbcUrls.sameTarget(url, primaryUrl)) {
            throw new ConfigurationException("hibernate-rwsplit: replica '" + name + "' ('"
                    + Secrets.scrub(url) + "') given by setting '" + key + "' is the primary itself (same host, port and"
                    + " database as '" + Secrets.scrub(primaryUrl) + "'): list the URLs of the replicas");
        }
    }

    private static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static List<String> keysWithPrefix(Settings s, String prefix) {
        return s.keysWithPrefix(prefix);
    }
}
