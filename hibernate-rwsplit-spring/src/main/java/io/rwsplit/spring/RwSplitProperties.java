package io.rwsplit.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * hibernate-rwsplit's settings for a Spring Boot application, under {@code spring.rwsplit}. Each value that is
 * set is handed to Hibernate as the core's {@code hibernate.rwsplit.*} setting (see {@link HibernateSettings});
 * a value left unset keeps the core's default. Validated when bound: an invalid value fails startup naming
 * the property.
 */
@ConfigurationProperties(prefix = RwSplitProperties.PREFIX)
public class RwSplitProperties implements Validator {

    public static final String PREFIX = "spring.rwsplit";

    /** Whether hibernate-rwsplit is configured by these properties (the module stays inert without replicas). */
    private boolean enabled = true;

    /** The replicas of the primary DataSource, in order of preference for balancers that care. */
    private List<Replica> replicas = new ArrayList<>();

    /** How a replica is chosen among the healthy ones of the best tier. Default: thread_affinity. */
    private LoadBalancer loadBalancer;

    /** What a read does when no replica is healthy. Default: primary. */
    private Fallback fallback;

    /**
     * The consistency level of every session: strong, read_your_writes, eventual or
     * bounded_staleness:<ISO-8601 duration> (for example bounded_staleness:PT0.5S). Default: read_your_writes.
     */
    private String consistency;

    /**
     * Whose writes a read_your_writes read of a session without a named scope sees: unit (every write this persistence
     * unit committed before the read began) or session (only the session's own). Default: unit.
     */
    private ConsistencyScope consistencyScope;

    /**
     * What a read does that must see a write a failover of the primary lost: fail (throw LostWriteException, once per
     * session, scope and token) or log (read the new primary's data, logged at WARN and counted). Default: fail.
     */
    private LostWrites lostWrites;

    /** Whether entities read from a replica may be put into the second-level cache. Default: false. */
    private Boolean replicaCachePuts;

    /**
     * How many query shapes the statistics report (the shapes with most statements, then "other"). Default: 50.
     */
    private Integer queryShapes;

    /**
     * The query-shape statistics time each shape's first 8 executions, then one in this many at random; 1 = every
     * one. Default: 16.
     */
    private Integer timeSample;

    /** The stale-read audit checks one replica read in this many; 1 = every one, 0 = off. Default: 100. */
    private Integer auditSample;

    /** HikariCP properties for every replica pool (maximumPoolSize, connectionTimeout, ...). */
    private Map<String, String> pool = new LinkedHashMap<>();

    private final Health health = new Health();

    private final ReadYourWrites readYourWrites = new ReadYourWrites();

    private final Store store = new Store();

    private final Primary primary = new Primary();

    private final Web web = new Web();

    /** One replica: a JDBC URL, optionally a name, credentials, weight and tier. */
    public static class Replica {

        /** Letters, digits, '_' and '-'; default replica1, replica2, ... by position. */
        private String name;

        /** The replica's JDBC URL. */
        private String url;

        /** User name; default: the primary DataSource's (spring.datasource.username). */
        private String username;

        /** Password; default: the primary DataSource's when the user name is not set either. */
        private String password;

        /** Weight for the weighted balancer, at least 1. Default: 1. */
        private Integer weight;

        /** Tier, at least 1: tier-2 replicas are used only when no tier-1 replica is healthy. Default: 1. */
        private Integer tier;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public String getUrl() { return url; }
        public void setUrl(String url) { this.url = url; }
        public String getUsername() { return username; }
        public void setUsername(String username) { this.username = username; }
        public String getPassword() { return password; }
        public void setPassword(String password) { this.password = password; }
        public Integer getWeight() { return weight; }
        public void setWeight(Integer weight) { this.weight = weight; }
        public Integer getTier() { return tier; }
        public void setTier(Integer tier) { this.tier = tier; }
    }

    /** Replica health: lag probes, ejection and recovery. */
    public static class Health {

        /** How replica lag is measured. Default: auto (heartbeat for MariaDB/MySQL URLs, lsn for PostgreSQL URLs, else reachability). */
        private LagProbe lagProbe;

        /** Pause between two probes of one replica. Default: 250ms. */
        private Duration probeInterval;

        /** Connect and network timeout of one probe. Default: 1s. */
        private Duration probeTimeout;

        /** Lag above which a replica leaves rotation (LAGGING); 0 = no lag limit. Default: 1s. */
        private Duration maxLag;

        /** Consecutive failed probes that take a replica DOWN, at least 1. Default: 2. */
        private Integer failureThreshold;

        /** How long a LAGGING or DOWN replica must pass every probe before it serves reads again. Default: 1s. */
        private Duration recoveryPeriod;

        /** Table of the heartbeat lag probe, created on the primary if missing. Default: rwsplit_heartbeat. */
        private String heartbeatTable;

        public LagProbe getLagProbe() { return lagProbe; }
        public void setLagProbe(LagProbe lagProbe) { this.lagProbe = lagProbe; }
        public Duration getProbeInterval() { return probeInterval; }
        public void setProbeInterval(Duration probeInterval) { this.probeInterval = probeInterval; }
        public Duration getProbeTimeout() { return probeTimeout; }
        public void setProbeTimeout(Duration probeTimeout) { this.probeTimeout = probeTimeout; }
        public Duration getMaxLag() { return maxLag; }
        public void setMaxLag(Duration maxLag) { this.maxLag = maxLag; }
        public Integer getFailureThreshold() { return failureThreshold; }
        public void setFailureThreshold(Integer failureThreshold) { this.failureThreshold = failureThreshold; }
        public Duration getRecoveryPeriod() { return recoveryPeriod; }
        public void setRecoveryPeriod(Duration recoveryPeriod) { this.recoveryPeriod = recoveryPeriod; }
        public String getHeartbeatTable() { return heartbeatTable; }
        public void setHeartbeatTable(String heartbeatTable) { this.heartbeatTable = heartbeatTable; }
    }

    /** Whose writes a read without a named scope sees. */
    public enum ConsistencyScope { UNIT, SESSION }

    /** What a read does that must see a write a failover lost. */
    public enum LostWrites { FAIL, LOG }

    /** How read-your-writes is honoured. */
    public static class ReadYourWrites {

        /** auto (gtid on MariaDB/MySQL, else time), gtid or time. Default: auto. */
        private ReadYourWritesMode mode;

        /** Time mode: how long after a scope's last commit its reads stay on the primary. Default: 2s. */
        private Duration window;

        /** GTID mode: how long a read may wait for a replica to apply the scope's last write. Default: 200ms. */
        private Duration causalWaitTimeout;

        public ReadYourWritesMode getMode() { return mode; }
        public void setMode(ReadYourWritesMode mode) { this.mode = mode; }
        public Duration getWindow() { return window; }
        public void setWindow(Duration window) { this.window = window; }
        public Duration getCausalWaitTimeout() { return causalWaitTimeout; }
        public void setCausalWaitTimeout(Duration causalWaitTimeout) { this.causalWaitTimeout = causalWaitTimeout; }
    }

    /** Where the last write of each consistency scope is kept. */
    public static class Store {

        /** memory (this JVM) or redis (shared through redis-url). Default: memory. */
        private StoreType type;

        /** The Redis server of the redis store, such as redis://127.0.0.1:6379/0. */
        private String redisUrl;

        /** How long a scope's last write is kept. Default: 1m. */
        private Duration ttl;

        /** The most scopes the memory store keeps, at least 1. Default: 100000. */
        private Integer maxScopes;

        public StoreType getType() { return type; }
        public void setType(StoreType type) { this.type = type; }
        public String getRedisUrl() { return redisUrl; }
        public void setRedisUrl(String redisUrl) { this.redisUrl = redisUrl; }
        public Duration getTtl() { return ttl; }
        public void setTtl(Duration ttl) { this.ttl = ttl; }
        public Integer getMaxScopes() { return maxScopes; }
        public void setMaxScopes(Integer maxScopes) { this.maxScopes = maxScopes; }
    }

    /** The primary's circuit breaker. */
    public static class Primary {

        /** Consecutive failures to obtain a primary connection that open the breaker; 0 disables it. Default: 5. */
        private Integer failureThreshold;

        /** How long the open breaker fails fast before it lets one trial connection through. Default: 5s. */
        private Duration coolDown;

        public Integer getFailureThreshold() { return failureThreshold; }
        public void setFailureThreshold(Integer failureThreshold) { this.failureThreshold = failureThreshold; }
        public Duration getCoolDown() { return coolDown; }
        public void setCoolDown(Duration coolDown) { this.coolDown = coolDown; }
    }

    /** Web requests (servlet stack). */
    public static class Web {

        /** Whether every web request gets a consistency scope, cookie and request id. */
        private boolean enabled = true;

        /** Whether POST, PUT, PATCH and DELETE requests run every statement on the primary. */
        private boolean primaryForUnsafeMethods = true;

        /** Where a request's consistency scope comes from, first match wins. */
        private List<ScopeSource> scopeOrder = new ArrayList<>(List.of(ScopeSource.SESSION, ScopeSource.PRINCIPAL, ScopeSource.COOKIE));

        /** The request header whose value becomes the request id (else one is generated). */
        private String requestIdHeader = "X-Request-Id";

        /** The MDC key of the request id on log lines written during the request. */
        private String requestIdMdcKey = "rwsplit.request";

        private final Cookie cookie = new Cookie();

        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        public boolean isPrimaryForUnsafeMethods() { return primaryForUnsafeMethods; }
        public void setPrimaryForUnsafeMethods(boolean primaryForUnsafeMethods) { this.primaryForUnsafeMethods = primaryForUnsafeMethods; }
        public List<ScopeSource> getScopeOrder() { return scopeOrder; }
        public void setScopeOrder(List<ScopeSource> scopeOrder) { this.scopeOrder = scopeOrder; }
        public String getRequestIdHeader() { return requestIdHeader; }
        public void setRequestIdHeader(String requestIdHeader) { this.requestIdHeader = requestIdHeader; }
        public String getRequestIdMdcKey() { return requestIdMdcKey; }
        public void setRequestIdMdcKey(String requestIdMdcKey) { this.requestIdMdcKey = requestIdMdcKey; }
        public Cookie getCookie() { return cookie; }
    }

    /** The signed consistency cookie. */
    public static class Cookie {

        /** Whether a request that wrote sets the cookie (and a request that brings it reads what it stands for). */
        private boolean enabled = true;

        /** The cookie's name. */
        private String name = "RWSPLIT";

        /**
         * The key that signs the cookie (HMAC-SHA256), at least 32 characters; every instance of the application
         * must share it for a cookie set by one to be honoured by the others. Default: a random key per JVM.
         */
        private String secret;

        /** How long the cookie lives; at least as long as the worst replication lag you tolerate. */
        private Duration maxAge = Duration.ofMinutes(5);

        /** The cookie's path. */
        private String path = "/";

        /** Whether the cookie is marked Secure; default: when the request came over HTTPS. */
        private Boolean secure;

        /** The cookie's SameSite attribute. */
        private String sameSite = "Lax";

        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }
        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public String getSecret() { return secret; }
        public void setSecret(String secret) { this.secret = secret; }
        public Duration getMaxAge() { return maxAge; }
        public void setMaxAge(Duration maxAge) { this.maxAge = maxAge; }
        public String getPath() { return path; }
        public void setPath(String path) { this.path = path; }
        public Boolean getSecure() { return secure; }
        public void setSecure(Boolean secure) { this.secure = secure; }
        public String getSameSite() { return sameSite; }
        public void setSameSite(String sameSite) { this.sameSite = sameSite; }
    }

    /** The built-in balancers. */
    public enum LoadBalancer { ROUND_ROBIN, WEIGHTED, LEAST_LAG, LEAST_IN_FLIGHT, RANDOM, THREAD_AFFINITY }

    /** What a read does when no replica is healthy. */
    public enum Fallback { PRIMARY, FAIL }

    /** The built-in lag probes. */
    public enum LagProbe { AUTO, HEARTBEAT, REPLICA_STATUS, GTID, LSN, REPLAY_TIMESTAMP, REACHABILITY }

    /** How read-your-writes is honoured. */
    public enum ReadYourWritesMode { AUTO, GTID, TIME }

    /** The built-in consistency stores. */
    public enum StoreType { MEMORY, REDIS }

    /** Where a web request's consistency scope comes from. */
    public enum ScopeSource {
        /** The HTTP session, if the request has one (never creates one). */
        SESSION,
        /** The authenticated principal's name. */
        PRINCIPAL,
        /** The consistency cookie's scope (a random id the module assigns). */
        COOKIE
    }

    @Override
    public boolean supports(Class<?> type) {
        return RwSplitProperties.class.isAssignableFrom(type);
    }

    /**
     * Checks what only these properties have (each replica has a URL, names are unique, the cookie's rules) and
     * hands every value that becomes a core setting to the core's own validator, reporting its refusals under the
     * property they came from.
     */
    @Override
    public void validate(Object target, Errors errors) {
        java.util.Set<String> names = new java.util.HashSet<>();
        boolean urls = true;
        for (int i = 0; i < replicas.size(); i++) {
            Replica r = replicas.get(i);
            String at = "replicas[" + i + "].";
            if (r.getUrl() == null || r.getUrl().isBlank()) {
                errors.rejectValue(at + "url", "required", "must be set to the replica's JDBC URL");
                urls = false;
            }
            else if (!r.getUrl().startsWith("jdbc:")) {
                errors.rejectValue(at + "url", "invalid", "must be a JDBC URL (jdbc:...)");
            }
            if (r.getName() != null && !r.getName().matches("[A-Za-z0-9_-]+")) {
                errors.rejectValue(at + "name", "invalid", "must be letters, digits, '_' and '-'");
            }
            if (!names.add(HibernateSettings.replicaName(r, i))) {
                errors.rejectValue(at + "name", "duplicate", "must be unique");
            }
        }
        if (urls) {
            for (io.rwsplit.InvalidSettingException e
                    : io.rwsplit.internal.config.Settings.problems(HibernateSettings.settings(this, null, null))) {
                errors.rejectValue(field(e.key()), "invalid", "must be " + e.expected() + " (core setting " + e.key() + ")");
            }
        }
        if (web.cookie.secret != null && web.cookie.secret.length() < 32) {
            errors.rejectValue("web.cookie.secret", "invalid", "must be at least 32 characters");
        }
        if (web.cookie.maxAge != null && (web.cookie.maxAge.isNegative() || web.cookie.maxAge.isZero())) {
            errors.rejectValue("web.cookie.maxAge", "invalid", "must be a positive duration");
        }
        if (web.scopeOrder.isEmpty()) {
            errors.rejectValue("web.scopeOrder", "invalid", "must name at least one of session, principal, cookie");
        }
    }

    /** The field of these properties behind a core key, as the binder names it ({@code health.maxLag}). */
    private String field(String key) {
        if (key.startsWith(io.rwsplit.RwSplitSettings.REPLICA_PREFIX)) {
            String rest = key.substring(io.rwsplit.RwSplitSettings.REPLICA_PREFIX.length());
            String name = rest.substring(0, rest.lastIndexOf('.'));
            for (int i = 0; i < replicas.size(); i++) {
                if (HibernateSettings.replicaName(replicas.get(i), i).equals(name)) {
                    return "replicas[" + i + "]." + rest.substring(rest.lastIndexOf('.') + 1);
                }
            }
        }
        String property = HibernateSettings.propertyOf(key).substring(PREFIX.length() + 1);
        StringBuilder camel = new StringBuilder();
        for (int i = 0; i < property.length(); i++) {
            char c = property.charAt(i);
            if (c == '-' && i + 1 < property.length()) {
                camel.append(Character.toUpperCase(property.charAt(++i)));
            }
            else {
                camel.append(c);
            }
        }
        return camel.toString();
    }

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public List<Replica> getReplicas() { return replicas; }
    public void setReplicas(List<Replica> replicas) { this.replicas = replicas; }
    public LoadBalancer getLoadBalancer() { return loadBalancer; }
    public void setLoadBalancer(LoadBalancer loadBalancer) { this.loadBalancer = loadBalancer; }
    public Fallback getFallback() { return fallback; }
    public void setFallback(Fallback fallback) { this.fallback = fallback; }
    public String getConsistency() { return consistency; }
    public void setConsistency(String consistency) { this.consistency = consistency; }
    public ConsistencyScope getConsistencyScope() { return consistencyScope; }
    public void setConsistencyScope(ConsistencyScope consistencyScope) { this.consistencyScope = consistencyScope; }
    public Integer getQueryShapes() { return queryShapes; }
    public void setQueryShapes(Integer queryShapes) { this.queryShapes = queryShapes; }
    public Integer getTimeSample() { return timeSample; }
    public void setTimeSample(Integer timeSample) { this.timeSample = timeSample; }
    public Integer getAuditSample() { return auditSample; }
    public void setAuditSample(Integer auditSample) { this.auditSample = auditSample; }
    public LostWrites getLostWrites() { return lostWrites; }
    public void setLostWrites(LostWrites lostWrites) { this.lostWrites = lostWrites; }
    public Boolean getReplicaCachePuts() { return replicaCachePuts; }
    public void setReplicaCachePuts(Boolean replicaCachePuts) { this.replicaCachePuts = replicaCachePuts; }
    public Map<String, String> getPool() { return pool; }
    public void setPool(Map<String, String> pool) { this.pool = pool; }
    public Health getHealth() { return health; }
    public ReadYourWrites getReadYourWrites() { return readYourWrites; }
    public Store getStore() { return store; }
    public Primary getPrimary() { return primary; }
    public Web getWeb() { return web; }
}
