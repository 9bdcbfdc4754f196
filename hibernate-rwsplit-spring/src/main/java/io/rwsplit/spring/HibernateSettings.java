package io.rwsplit.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Setting;
import io.rwsplit.internal.config.SettingsTable;

/**
 * Hands {@code spring.rwsplit.*} to Hibernate as the core's {@code hibernate.rwsplit.*} settings, with the
 * application context's {@link RoutingContext} as intent source and scope resolver. Only values that are set
 * are handed over, so the core's defaults stay the only defaults. Settings given directly under
 * {@code spring.jpa.properties.hibernate.rwsplit.*} keep working; the same key given both ways with different
 * values fails startup naming both.
 */
final class HibernateSettings implements HibernatePropertiesCustomizer {

    /** The {@code spring.rwsplit} property behind each core key, for error messages. */
    static final Map<String, String> PROPERTY_OF_KEY = Map.ofEntries(
            Map.entry(RwSplitSettings.REPLICAS, "spring.rwsplit.replicas"),
            Map.entry(RwSplitSettings.LOAD_BALANCER, "spring.rwsplit.load-balancer"),
            Map.entry(RwSplitSettings.FALLBACK, "spring.rwsplit.fallback"),
            Map.entry(RwSplitSettings.CONSISTENCY, "spring.rwsplit.consistency"),
            Map.entry(RwSplitSettings.CONSISTENCY_SCOPE, "spring.rwsplit.consistency-scope"),
            Map.entry(RwSplitSettings.LOST_WRITES, "spring.rwsplit.lost-writes"),
            Map.entry(RwSplitSettings.TOKEN_SECRET, "spring.rwsplit.web.cookie.secret"),
            Map.entry(RwSplitSettings.REPLICA_CACHE_PUTS, "spring.rwsplit.replica-cache-puts"),
            Map.entry(RwSplitSettings.QUERY_SHAPES, "spring.rwsplit.query-shapes"),
            Map.entry(RwSplitSettings.TIME_SAMPLE, "spring.rwsplit.time-sample"),
            Map.entry(RwSplitSettings.AUDIT_SAMPLE, "spring.rwsplit.audit-sample"),
            Map.entry(RwSplitSettings.LAG_PROBE, "spring.rwsplit.health.lag-probe"),
            Map.entry(RwSplitSettings.PROBE_INTERVAL, "spring.rwsplit.health.probe-interval"),
            Map.entry(RwSplitSettings.PROBE_TIMEOUT, "spring.rwsplit.health.probe-timeout"),
            Map.entry(RwSplitSettings.MAX_LAG, "spring.rwsplit.health.max-lag"),
            Map.entry(RwSplitSettings.FAILURE_THRESHOLD, "spring.rwsplit.health.failure-threshold"),
            Map.entry(RwSplitSettings.RECOVERY_PERIOD, "spring.rwsplit.health.recovery-period"),
            Map.entry(RwSplitSettings.HEARTBEAT_TABLE, "spring.rwsplit.health.heartbeat-table"),
            Map.entry(RwSplitSettings.READ_YOUR_WRITES, "spring.rwsplit.read-your-writes.mode"),
            Map.entry(RwSplitSettings.READ_YOUR_WRITES_WINDOW, "spring.rwsplit.read-your-writes.window"),
            Map.entry(RwSplitSettings.CAUSAL_WAIT_TIMEOUT, "spring.rwsplit.read-your-writes.causal-wait-timeout"),
            Map.entry(RwSplitSettings.CONSISTENCY_STORE, "spring.rwsplit.store.type"),
            Map.entry(RwSplitSettings.REDIS_URL, "spring.rwsplit.store.redis-url"),
            Map.entry(RwSplitSettings.CONSISTENCY_STORE_TTL, "spring.rwsplit.store.ttl"),
            Map.entry(RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES, "spring.rwsplit.store.max-scopes"),
            Map.entry(RwSplitSettings.PRIMARY_FAILURE_THRESHOLD, "spring.rwsplit.primary.failure-threshold"),
            Map.entry(RwSplitSettings.PRIMARY_COOL_DOWN, "spring.rwsplit.primary.cool-down"));

    private final RwSplitProperties properties;
    private final RoutingContext context;
    private final String primaryUser;
    private final String primaryPassword;

    /**
     * @param primaryUser     the primary DataSource's user ({@code spring.datasource.username}), the default of every
     *                        replica's, or {@code null}
     * @param primaryPassword the primary's password, or {@code null}
     */
    HibernateSettings(RwSplitProperties properties, RoutingContext context, String primaryUser, String primaryPassword) {
        this.properties = properties;
        this.context = context;
        this.primaryUser = primaryUser;
        this.primaryPassword = primaryPassword;
    }

    @Override
    public void customize(Map<String, Object> hibernateProperties) {
        for (Map.Entry<String, Object> e : settings().entrySet()) {
            Object given = hibernateProperties.get(e.getKey());
            if (given != null && !sameValue(e.getKey(), given, e.getValue())) {
                throw new IllegalStateException("hibernate-rwsplit: '" + e.getKey() + "' is given twice: as '" + given
                        + "' in spring.jpa.properties and as '" + e.getValue() + "' by " + propertyOf(e.getKey()) + ": keep one");
            }
            hibernateProperties.put(e.getKey(), e.getValue());
        }
        // the web request and the annotations reach every session through these, unless the application names its own
        hibernateProperties.putIfAbsent(RwSplitSettings.INTENT_SOURCE, context);
        hibernateProperties.putIfAbsent(RwSplitSettings.SCOPE_RESOLVER, context);
    }

    /** Whether two values of a key mean the same ({@code 500ms} and {@code PT0.5S}), as the core reads them. */
    private static boolean sameValue(String key, Object a, Object b) {
        Setting row = SettingsTable.row(key);
        if (row != null) {
            try {
                return Objects.equals(row.parse(key, a), row.parse(key, b));
            }
            catch (RuntimeException e) {
                return false; // the core refuses one of them at startup, naming it
            }
        }
        return Objects.equals(a.toString().trim(), b.toString().trim());
    }

    /** The {@code spring.rwsplit} property behind a core key (or the key's own name under spring.jpa.properties). */
    static String propertyOf(String key) {
        String property = PROPERTY_OF_KEY.get(key);
        if (property == null && key.startsWith(RwSplitSettings.REPLICA_PREFIX)) {
            property = "spring.rwsplit.replicas[*]";
        }
        if (property == null && key.startsWith(RwSplitSettings.POOL_PREFIX)) {
            property = "spring.rwsplit.pool." + key.substring(RwSplitSettings.POOL_PREFIX.length());
        }
        return property == null ? "spring.jpa.properties." + key : property;
    }

    /** The core settings that {@code spring.rwsplit.*} sets. */
    Map<String, Object> settings() {
        return settings(properties, primaryUser, primaryPassword);
    }

    /**
     * The core settings that {@code spring.rwsplit.*} sets: text for lists and names, the bound values themselves
     * (a {@link Duration}, an {@link Integer}, a {@link Boolean}) for the rest, which the core validates as it
     * validates every other value.
     */
    static Map<String, Object> settings(RwSplitProperties properties, String primaryUser, String primaryPassword) {
        Map<String, Object> s = new LinkedHashMap<>();
        List<RwSplitProperties.Replica> replicas = properties.getReplicas();
        if (!replicas.isEmpty()) {
            StringBuilder entries = new StringBuilder();
            for (int i = 0; i < replicas.size(); i++) {
                RwSplitProperties.Replica r = replicas.get(i);
                String name = replicaName(r, i);
                entries.append(i == 0 ? "" : " ").append(name).append('=').append(String.valueOf(r.getUrl()).trim());
                String prefix = RwSplitSettings.REPLICA_PREFIX + name + ".";
                // Spring Boot builds the primary from spring.datasource.*, which Hibernate never sees: replicas default to it
                put(s, prefix + "user", r.getUsername() != null ? r.getUsername() : primaryUser);
                put(s, prefix + "password", r.getPassword() != null ? r.getPassword()
                        : r.getUsername() == null ? primaryPassword : null);
                put(s, prefix + "weight", r.getWeight());
                put(s, prefix + "tier", r.getTier());
            }
            s.put(RwSplitSettings.REPLICAS, entries.toString());
        }
        put(s, RwSplitSettings.LOAD_BALANCER, name(properties.getLoadBalancer()));
        put(s, RwSplitSettings.FALLBACK, name(properties.getFallback()));
        put(s, RwSplitSettings.CONSISTENCY, properties.getConsistency());
        put(s, RwSplitSettings.CONSISTENCY_SCOPE, name(properties.getConsistencyScope()));
        put(s, RwSplitSettings.LOST_WRITES, name(properties.getLostWrites()));
        put(s, RwSplitSettings.TOKEN_SECRET, properties.getWeb().getCookie().getSecret()); // tokens signed as cookies
        put(s, RwSplitSettings.REPLICA_CACHE_PUTS, properties.getReplicaCachePuts());
        put(s, RwSplitSettings.QUERY_SHAPES, properties.getQueryShapes());
        put(s, RwSplitSettings.TIME_SAMPLE, properties.getTimeSample());
        put(s, RwSplitSettings.AUDIT_SAMPLE, properties.getAuditSample());
        RwSplitProperties.Health h = properties.getHealth();
        put(s, RwSplitSettings.LAG_PROBE, name(h.getLagProbe()));
        put(s, RwSplitSettings.PROBE_INTERVAL, h.getProbeInterval());
        put(s, RwSplitSettings.PROBE_TIMEOUT, h.getProbeTimeout());
        put(s, RwSplitSettings.MAX_LAG, h.getMaxLag());
        put(s, RwSplitSettings.FAILURE_THRESHOLD, h.getFailureThreshold());
        put(s, RwSplitSettings.RECOVERY_PERIOD, h.getRecoveryPeriod());
        put(s, RwSplitSettings.HEARTBEAT_TABLE, h.getHeartbeatTable());
        RwSplitProperties.ReadYourWrites ryw = properties.getReadYourWrites();
        put(s, RwSplitSettings.READ_YOUR_WRITES, name(ryw.getMode()));
        put(s, RwSplitSettings.READ_YOUR_WRITES_WINDOW, ryw.getWindow());
        put(s, RwSplitSettings.CAUSAL_WAIT_TIMEOUT, ryw.getCausalWaitTimeout());
        RwSplitProperties.Store store = properties.getStore();
        put(s, RwSplitSettings.CONSISTENCY_STORE, name(store.getType()));
        put(s, RwSplitSettings.REDIS_URL, store.getRedisUrl());
        put(s, RwSplitSettings.CONSISTENCY_STORE_TTL, store.getTtl());
        put(s, RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES, store.getMaxScopes());
        put(s, RwSplitSettings.PRIMARY_FAILURE_THRESHOLD, properties.getPrimary().getFailureThreshold());
        put(s, RwSplitSettings.PRIMARY_COOL_DOWN, properties.getPrimary().getCoolDown());
        properties.getPool().forEach((k, v) -> put(s, RwSplitSettings.POOL_PREFIX + k, v));
        return s;
    }

    static String replicaName(RwSplitProperties.Replica replica, int index) {
        return replica.getName() != null && !replica.getName().isBlank() ? replica.getName().trim() : "replica" + (index + 1);
    }

    private static void put(Map<String, Object> s, String key, Object value) {
        if (value != null) {
            s.put(key, value);
        }
    }

    private static String name(Enum<?> value) {
        return value == null ? null : value.name().toLowerCase(Locale.ROOT);
    }
}
