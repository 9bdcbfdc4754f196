package io.rwsplit.internal.config;

import static io.rwsplit.internal.config.Setting.bool;
import static io.rwsplit.internal.config.Setting.choice;
import static io.rwsplit.internal.config.Setting.duration;
import static io.rwsplit.internal.config.Setting.integer;
import static io.rwsplit.internal.config.Setting.text;

import java.util.List;

import io.rwsplit.Consistency;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Setting.Kind;

/**
 * Every {@code hibernate.rwsplit.*} key: its kind, default and meaning. The only place a default is written;
 * {@link Settings} reads every key through its row, {@code docs/configuration.md} is tested against
 * {@link #ALL}, and the Spring and CDI modules validate through the same rows. The constants users write are
 * those of {@link RwSplitSettings}.
 */
public final class SettingsTable {

    private SettingsTable() {
    }

    private static final String R = RwSplitSettings.REPLICA_PREFIX + "NAME.";
    private static final String T = RwSplitSettings.TENANT_PREFIX + "T.";
    private static final String U = RwSplitSettings.RULE_PREFIX + "NAME.";

    // ------------------------------------------------------------------ replicas

    public static final Setting REPLICAS = text(RwSplitSettings.REPLICAS, "(off)", Kind.LIST,
            "Switches the module on.");
    public static final Setting REPLICA_URL = text(R + "url", null, "URL of a replica listed by name.");
    public static final Setting REPLICA_USER = text(R + "user", "(the primary's)", Kind.TEXT, "User name of the replica.");
    public static final Setting REPLICA_PASSWORD = text(R + "password", "(the primary's)", Kind.TEXT,
            "Password of the replica.");
    public static final Setting REPLICA_WEIGHT = integer(R + "weight", 1, 1, "Weight for the `weighted` balancer.");
    public static final Setting REPLICA_TIER = integer(R + "tier", 1, 1,
            "Tier 2 is used only when no tier-1 replica is healthy.");
    public static final Setting REPLICA_DATASOURCE = text(R + "datasource", null, Kind.OBJECT,
            "A `javax.sql.DataSource` object in the settings map instead of a URL (frameworks, CDI, Agroal).");
    public static final Setting POOL = text(RwSplitSettings.POOL_PREFIX + "PROPERTY", "(HikariCP's)", Kind.TEXT,
            "Any HikariCP property of the replica pools (unknown ones fail startup).");
    public static final Setting LOAD_BALANCER = choice(RwSplitSettings.LOAD_BALANCER, "thread_affinity",
            List.of("round_robin", "weighted", "least_lag", "least_in_flight", "random", "thread_affinity"),
            "How a replica is chosen among the healthy ones of the best tier.");
    public static final Setting FALLBACK = choice(RwSplitSettings.FALLBACK, "primary", List.of("primary", "fail"),
            "What a read does when no replica is healthy.");
    public static final Setting REPLICA_CACHE_PUTS = bool(RwSplitSettings.REPLICA_CACHE_PUTS, false,
            "Whether entities read from a replica may be put into the second-level cache.");
    public static final Setting TENANTS = text(RwSplitSettings.TENANTS, "(off)", Kind.LIST,
            "Multi-tenancy: tenant ids separated by whitespace.");
    public static final Setting TENANT_URL = text(T + "url", null, "JDBC URL of the tenant's primary.");
    public static final Setting TENANT_USER = text(T + "user", null, "User name of the tenant's primary and replicas.");
    public static final Setting TENANT_PASSWORD = text(T + "password", null,
            "Password of the tenant's primary and replicas.");
    public static final Setting TENANT_REPLICAS = text(T + "replicas", null, Kind.LIST,
            "The tenant's replicas, as `hibernate.rwsplit.replicas`.");

    // ------------------------------------------------------------------ consistency

    public static final Setting CONSISTENCY = new Setting(RwSplitSettings.CONSISTENCY, Kind.CONSISTENCY,
            Consistency.readYourWrites(), "read_your_writes", 0, List.of(), "Default level of every session.");
    public static final Setting CONSISTENCY_SCOPE = choice(RwSplitSettings.CONSISTENCY_SCOPE, "unit",
            List.of("unit", "session"),
            "Whose writes a `read_your_writes` read of a session without a named scope sees.");
    public static final Setting READ_YOUR_WRITES = choice(RwSplitSettings.READ_YOUR_WRITES, "auto",
            List.of("auto", "gtid", "time"), "How read-your-writes is honoured.");
    public static final Setting READ_YOUR_WRITES_WINDOW = duration(RwSplitSettings.READ_YOUR_WRITES_WINDOW, "2s", false,
            "Time mode: how long after a commit reads stay on the primary.");
    public static final Setting CAUSAL_WAIT_TIMEOUT = duration(RwSplitSettings.CAUSAL_WAIT_TIMEOUT, "200ms", false,
            "GTID mode: how long a read may wait for a replica to apply the write it must see.");
    public static final Setting LOST_WRITES = choice(RwSplitSettings.LOST_WRITES, "fail", List.of("fail", "log"),
            "What a read does that must see a write a failover of the primary lost.");
    public static final Setting TOKEN_SECRET = text(RwSplitSettings.TOKEN_SECRET, "(random per JVM)", Kind.TEXT,
            "The key that signs consistency tokens, at least 32 characters, the same on every instance.");
    public static final Setting CONSISTENCY_STORE = new Setting(RwSplitSettings.CONSISTENCY_STORE, Kind.OBJECT_OR_CLASS,
            "memory", "memory", 0, List.of(), "Where named scopes and the unit's position are kept.");
    public static final Setting REDIS_URL = text(RwSplitSettings.REDIS_URL, null,
            "Lettuce URI of the `redis` store, e.g. `redis://127.0.0.1:6379/0`.");
    public static final Setting CONSISTENCY_STORE_TTL = duration(RwSplitSettings.CONSISTENCY_STORE_TTL, "1m", true,
            "How long the store keeps a scope's last write.");
    public static final Setting CONSISTENCY_STORE_MAX_SCOPES = integer(RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES,
            100_000, 1, "Most scopes the `memory` store keeps, and most scopes whose writes wait for a shared store that does not answer.");
    public static final Setting SCOPE_RESOLVER = text(RwSplitSettings.SCOPE_RESOLVER, null, Kind.OBJECT_OR_CLASS,
            "A `ScopeResolver` that names the scope of new sessions.");

    // ------------------------------------------------------------------ replica health

    public static final Setting LAG_PROBE = choice(RwSplitSettings.LAG_PROBE, "auto",
            List.of("auto", "heartbeat", "gtid", "replica_status", "lsn", "replay_timestamp", "reachability"),
            "How replica lag is measured.");
    public static final Setting PROBE_INTERVAL = duration(RwSplitSettings.PROBE_INTERVAL, "250ms", true,
            "Pause between two probes of a replica, and between two heartbeats.");
    public static final Setting PROBE_TIMEOUT = duration(RwSplitSettings.PROBE_TIMEOUT, "1s", true,
            "Connect and network timeout of a probe.");
    public static final Setting MAX_LAG = duration(RwSplitSettings.MAX_LAG, "1s", false,
            "Lag above which a replica leaves rotation (LAGGING); `0` = no lag limit.");
    public static final Setting FAILURE_THRESHOLD = integer(RwSplitSettings.FAILURE_THRESHOLD, 2, 1,
            "Consecutive failed probes that take a replica DOWN.");
    public static final Setting RECOVERY_PERIOD = duration(RwSplitSettings.RECOVERY_PERIOD, "1s", false,
            "How long a LAGGING/DOWN replica must pass every probe before it is UP again; `0` = at the first healthy probe.");
    public static final Setting HEARTBEAT_TABLE = text(RwSplitSettings.HEARTBEAT_TABLE, "rwsplit_heartbeat",
            "Table of the `heartbeat` probe, `name` or `schema.name`.");
    public static final Setting PRIMARY_FAILURE_THRESHOLD = integer(RwSplitSettings.PRIMARY_FAILURE_THRESHOLD, 5, 0,
            "Consecutive failed primary acquisitions that open the breaker; `0` disables it.");
    public static final Setting PRIMARY_COOL_DOWN = duration(RwSplitSettings.PRIMARY_COOL_DOWN, "5s", true,
            "How long the open breaker fails fast before one trial.");

    public static final Setting AUDIT_SAMPLE = integer(RwSplitSettings.AUDIT_SAMPLE, 100, 0,
            "The stale-read audit checks one replica read in N; `1` = every one, `0` = off.");
    public static final Setting RULE_MATCH = text(U + "match", null,
            "Which statements a rule moves: `id:<shape id>`, `source:<opening comment>`, `prefix:<normalised SQL>`"
                    + " or `query:<named query>`.");
    public static final Setting RULE_ROUTE = text(U + "route", null,
            "Where the rule moves their reads: `primary`, `consistency:<level>` or `tier:<n>`.");
    public static final Setting QUERY_SHAPES = integer(RwSplitSettings.QUERY_SHAPES, 50, 1,
            "How many query shapes the statistics report (the shapes with most statements, then `other`).");
    public static final Setting TIME_SAMPLE = integer(RwSplitSettings.TIME_SAMPLE, 16, 1,
            "The query-shape statistics time each shape's first 8 executions, then one in N at random; `1` = every one.");

    // ------------------------------------------------------------------ integration hooks

    public static final Setting TRANSACTION_STATUS = text(RwSplitSettings.TRANSACTION_STATUS, "(none)",
            Kind.OBJECT_OR_CLASS, "Where routing learns about JTA transactions.");
    public static final Setting INTENT_SOURCE = text(RwSplitSettings.INTENT_SOURCE, "(none)", Kind.OBJECT_OR_CLASS,
            "The intent of the current unit of work for sessions without their own.");
    public static final Setting CLOCK = text(RwSplitSettings.CLOCK, "(system)", Kind.OBJECT,
            "An `io.rwsplit.spi.Clock` object: tests and simulations.");

    /** Every row, in the order of the documentation. */
    public static final List<Setting> ALL = List.of(
            REPLICAS, REPLICA_URL, REPLICA_USER, REPLICA_PASSWORD, REPLICA_WEIGHT, REPLICA_TIER, REPLICA_DATASOURCE,
            POOL, LOAD_BALANCER, FALLBACK, REPLICA_CACHE_PUTS, TENANTS, TENANT_URL, TENANT_USER, TENANT_PASSWORD,
            TENANT_REPLICAS,
            CONSISTENCY, CONSISTENCY_SCOPE, READ_YOUR_WRITES, READ_YOUR_WRITES_WINDOW, CAUSAL_WAIT_TIMEOUT, LOST_WRITES, TOKEN_SECRET,
            CONSISTENCY_STORE, REDIS_URL, CONSISTENCY_STORE_TTL, CONSISTENCY_STORE_MAX_SCOPES, SCOPE_RESOLVER,
            LAG_PROBE, PROBE_INTERVAL, PROBE_TIMEOUT, MAX_LAG, FAILURE_THRESHOLD, RECOVERY_PERIOD, HEARTBEAT_TABLE,
            PRIMARY_FAILURE_THRESHOLD, PRIMARY_COOL_DOWN, QUERY_SHAPES, TIME_SAMPLE, AUDIT_SAMPLE, RULE_MATCH, RULE_ROUTE,
            TRANSACTION_STATUS, INTENT_SOURCE, CLOCK);

    /** The options after {@code hibernate.rwsplit.replica.NAME.} ({@code url}, {@code user}, ...). */
    public static final List<String> REPLICA_OPTIONS = options(R);

    /** The options after {@code hibernate.rwsplit.rule.NAME.} ({@code match}, {@code route}). */
    public static final List<String> RULE_OPTIONS = options(U);

    /** The options after {@code hibernate.rwsplit.tenant.T.} ({@code url}, {@code user}, ...). */
    public static final List<String> TENANT_OPTIONS = options(T);

    /**
     * The row of a key: the row of that name, else the template it is an instance of
     * ({@code hibernate.rwsplit.replica.a.weight}, {@code hibernate.rwsplit.tenant.t.replica.a.weight}); {@code null}
     * for an unknown key, an indexed replica entry and a pool property.
     */
    public static Setting row(String key) {
        for (Setting s : ALL) {
            if (!s.isTemplate() && s.key().equals(key)) {
                return s;
            }
        }
        String rest = key;
        if (rest.startsWith(RwSplitSettings.TENANT_PREFIX)) {
            String tenantRest = rest.substring(RwSplitSettings.TENANT_PREFIX.length());
            int dot = tenantRest.indexOf('.');
            if (dot <= 0) {
                return null;
            }
            String option = tenantRest.substring(dot + 1);
            if (TENANT_OPTIONS.contains(option)) {
                return row(T, option);
            }
            rest = RwSplitSettings.PREFIX + option; // a tenant's replica options are those of a single primary
        }
        if (rest.startsWith(RwSplitSettings.RULE_PREFIX)) {
            String ruleRest = rest.substring(RwSplitSettings.RULE_PREFIX.length());
            int dot = ruleRest.lastIndexOf('.');
            return dot <= 0 ? null : row(U, ruleRest.substring(dot + 1));
        }
        if (rest.startsWith(RwSplitSettings.REPLICA_PREFIX)) {
            String replicaRest = rest.substring(RwSplitSettings.REPLICA_PREFIX.length());
            int dot = replicaRest.lastIndexOf('.');
            return dot <= 0 ? null : row(R, replicaRest.substring(dot + 1));
        }
        return null;
    }

    private static Setting row(String templatePrefix, String option) {
        for (Setting s : ALL) {
            if (s.key().equals(templatePrefix + option)) {
                return s;
            }
        }
        return null;
    }

    private static List<String> options(String templatePrefix) {
        return ALL.stream().filter(s -> s.key().startsWith(templatePrefix))
                .map(s -> s.key().substring(templatePrefix.length())).toList();
    }
}
