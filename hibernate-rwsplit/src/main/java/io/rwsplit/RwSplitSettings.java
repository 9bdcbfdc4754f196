package io.rwsplit;

/**
 * Every configuration key of hibernate-rwsplit. All keys live under {@code hibernate.rwsplit.}; a key
 * under that prefix that is not listed here fails startup with an error naming it.
 * <p>
 * Values may be given in {@code persistence.xml}, {@code hibernate.properties} or the settings map.
 * Durations are ISO-8601 ({@code PT0.5S}) or a number with a unit {@code ms}, {@code s}, {@code m} or {@code h}
 * ({@code 250ms}, {@code 1.5s}, {@code 2m}, {@code 1h}), see {@link Durations}; a bare number other than {@code 0}
 * is refused, and {@code 0} means "disabled" where a key says so. Booleans are {@code true} or {@code false}.
 * Enum values accept the enum constant or its name in any case. The kind, default and rule of every key are
 * in one table, {@code io.rwsplit.internal.config.SettingsTable}.
 */
public final class RwSplitSettings {

    private RwSplitSettings() {
    }

    /** The prefix of every key. */
    public static final String PREFIX = "hibernate.rwsplit.";

    /**
     * The replicas. Setting this key switches the module on; without it the module does nothing.
     * <p>
     * Format: entries separated by whitespace, commas, semicolons or new lines. A comma or semicolon that
     * is part of a URL stays in it: after a URL, only a separator followed by the next {@code jdbc:} (or
     * {@code name=jdbc:}) entry ends it, so {@code jdbc:mysql://h1,h2/db} and {@code jdbc:h2:mem:r;MODE=MySQL}
     * are one replica each. The indexed form {@code hibernate.rwsplit.replicas[0]}, {@code [1]}, ... (or
     * {@code .0}, {@code .1}), as Spring binds a YAML list, is accepted instead (not both). Each entry is one of
     * <ul>
     *   <li>{@code jdbc:...} - a URL; the replica is named {@code replica1}, {@code replica2}, ... by position;</li>
     *   <li>{@code name=jdbc:...} - a named URL;</li>
     *   <li>{@code name} - a name whose URL ({@link #REPLICA_PREFIX}{@code name.url}) or DataSource
     *       ({@link #REPLICA_PREFIX}{@code name.datasource}) is given separately.</li>
     * </ul>
     * A URL that is malformed, that no JDBC driver on the class path accepts (unless
     * {@code hibernate.rwsplit.pool.driverClassName} is set), or that names the primary's own host, port and
     * database fails startup. While neither this key nor {@link #TENANTS} is set, every {@code hibernate.rwsplit.*}
     * key present is named in a WARN (it has no effect).
     * Names are letters, digits, {@code _} and {@code -}, unique.
     *
     * @since 0.1
     */
    public static final String REPLICAS = PREFIX + "replicas";

    /**
     * Per-replica options: {@code hibernate.rwsplit.replica.NAME.OPTION} where OPTION is one of
     * <ul>
     *   <li>{@code url} - JDBC URL (when the entry in {@link #REPLICAS} is a bare name);</li>
     *   <li>{@code user}, {@code password} - credentials; default: the primary's
     *       ({@code jakarta.persistence.jdbc.user} / {@code hibernate.connection.username} and the matching password);</li>
     *   <li>{@code weight} - integer &ge; 1 for the {@code weighted} balancer; default 1;</li>
     *   <li>{@code tier} - integer &ge; 1; replicas of tier 1 are used first, tier 2 only when no tier-1
     *       replica is healthy; default 1;</li>
     *   <li>{@code datasource} - a {@link javax.sql.DataSource} object placed in the settings map
     *       (frameworks, CDI) instead of a URL; the module then creates no pool for that replica.</li>
     * </ul>
     *
     * @since 0.1
     */
    public static final String REPLICA_PREFIX = PREFIX + "replica.";

    /**
     * HikariCP settings for every replica pool: {@code hibernate.rwsplit.pool.PROPERTY} sets the HikariCP
     * property of that name ({@code maximumPoolSize}, {@code connectionTimeout}, ...). Unknown properties
     * fail startup. Default pool: HikariCP defaults, {@code maximumPoolSize=10}, {@code readOnly=true}, and the
     * primary pool's {@code connectionInitSql} ({@code hibernate.hikari.connectionInitSql} or a HikariCP
     * {@code DataSource} given to the unit) unless it may write.
     *
     * @since 0.1
     */
    public static final String POOL_PREFIX = PREFIX + "pool.";

    /**
     * How to pick a replica among the healthy ones of the best tier: {@code thread_affinity} (default: each thread
     * keeps to one replica, the threads spread over them), {@code round_robin} (each read on the next),
     * {@code weighted} (by {@code replica.NAME.weight}), {@code least_lag}, {@code least_in_flight} or {@code random}.
     *
     * @since 0.1
     */
    public static final String LOAD_BALANCER = PREFIX + "load_balancer";

    /**
     * What a read does when no replica is healthy: {@code primary} (default: read from the primary, reason
     * {@code NO_HEALTHY_REPLICA}) or {@code fail} (throw an {@link java.sql.SQLException} naming this key).
     *
     * @since 0.1
     */
    public static final String FALLBACK = PREFIX + "fallback";

    /**
     * How replica lag is measured: {@code auto} (default), {@code heartbeat}, {@code replica_status},
     * {@code gtid}, {@code lsn}, {@code replay_timestamp} or {@code reachability}. {@code auto} means
     * {@code heartbeat} when every replica is given by a {@code jdbc:mariadb:} or {@code jdbc:mysql:} URL,
     * {@code lsn} when every replica is a {@code jdbc:postgresql:} URL (PostgreSQL standbys: replayed WAL
     * position against the primary's), else {@code reachability} (no lag, only "can the replica answer"),
     * logged at startup. {@code replay_timestamp} is PostgreSQL's {@code now() - pg_last_xact_replay_timestamp()},
     * 0 when the standby replayed all it received. See README, "Replica health", and docs/postgresql.md.
     *
     * @since 0.1
     */
    public static final String LAG_PROBE = PREFIX + "lag_probe";

    /** Pause between two probes of one replica (and between two heartbeats). Positive duration; default {@code 250ms}. @since 0.1 */
    public static final String PROBE_INTERVAL = PREFIX + "probe_interval";

    /** Connect and network timeout of one probe. Positive duration; default {@code 1s}. @since 0.1 */
    public static final String PROBE_TIMEOUT = PREFIX + "probe_timeout";

    /** Lag above which a replica leaves rotation (state LAGGING). Duration; default {@code 1s}; {@code 0} = no lag limit. @since 0.1 */
    public static final String MAX_LAG = PREFIX + "max_lag";

    /**
     * The stale-read audit: one replica read in N (chosen at random) reads, once its results are closed, the position
     * the replica has applied, on the same connection, and compares it with the unit's last committed write when the read
     * was routed and the session's requirement ({@code RoutingStatistics.staleReadsAgainstUnit()},
     * {@code staleReadsAgainstSession()}). Integer &ge; 0; {@code 1} audits every replica read, {@code 0} none;
     * default {@code 100}. @since 0.1
     */
    public static final String AUDIT_SAMPLE = PREFIX + "audit_sample";

    /**
     * Rules by query shape: {@code hibernate.rwsplit.rule.NAME.match} and {@code hibernate.rwsplit.rule.NAME.route}
     * move the reads of one shape without a code change. {@code match} is {@code id:<the shape's 12-digit id>},
     * {@code source:<the comment that opens the statement>} (with {@code hibernate.use_sql_comments}, the HQL),
     * {@code prefix:<the beginning of the shape's normalised SQL>} (ASCII case ignored) or
     * {@code query:<the name of a named query>} (needs {@code hibernate.use_sql_comments=true}: it matches the
     * statements that open with the comment Hibernate writes for that query, its {@code org.hibernate.comment} or else
     * its HQL; a name the persistence unit does not have fails the session factory's start); {@code route} is
     * {@code primary} (reason {@code SHAPE_RULE_PRIMARY}), {@code consistency:<level>} (the level of those reads,
     * as {@link #CONSISTENCY} writes it) or {@code tier:<n>} (those reads open their replica connection on a replica of
     * that tier, which some listed replica must have; at the session's level; as usual when none of that tier is UP).
     * A rule only changes reads that could go to a replica (autocommit reads and
     * reads of read-only transactions): writes, locking reads and the statements of read-write transactions stay on the
     * primary whatever it says. Rules are matched once per distinct SQL string, in the order of their names; the first
     * that matches applies. A malformed rule fails startup naming the key. @since 0.1
     */
    public static final String RULE_PREFIX = PREFIX + "rule.";

    /**
     * How many query shapes {@code RoutingStatistics.queryShapes()} reports: the shapes with most statements (a
     * statement's SQL with its literals and {@code IN} lists normalised), then one {@code other} row. Four times as many
     * distinct shapes are tracked as they first appear; later ones count in {@code other}. Integer &ge; 1; default
     * {@code 50}. @since 0.1
     */
    public static final String QUERY_SHAPES = PREFIX + "query_shapes";

    /**
     * How many executions the query-shape statistics time: each shape's first 8, then one in N at random (reading the
     * clock around every execution would cost a routed statement more than all the rest it counts). Statements and
     * executions are all counted; {@code QueryShapeStatistics}' mean time is estimated from the timed executions, each
     * standing for the executions it was drawn from, and its longest time is the longest timed one. Integer &ge; 1;
     * {@code 1} times every execution; default {@code 16}. @since 0.1
     */
    public static final String TIME_SAMPLE = PREFIX + "time_sample";

    /** Consecutive failed probes that take a replica DOWN. Integer &ge; 1; default {@code 2}. @since 0.1 */
    public static final String FAILURE_THRESHOLD = PREFIX + "failure_threshold";

    /**
     * How long a LAGGING or DOWN replica must pass every probe (reachable, lag within {@link #MAX_LAG})
     * before it receives reads again. Duration; default {@code 1s}; {@code 0} = at the first healthy probe.
     *
     * @since 0.1
     */
    public static final String RECOVERY_PERIOD = PREFIX + "recovery_period";

    /**
     * Table of the {@code heartbeat} lag probe, created on the primary if missing
     * ({@code id VARCHAR(64) PRIMARY KEY, ts BIGINT}) and written by each application instance (its own row)
     * every {@link #PROBE_INTERVAL}; {@code name} or {@code schema.name}. Default {@code rwsplit_heartbeat}.
     * When the user may not create or write it, the monitor logs one WARN and measures lag with the
     * {@code gtid} probe instead ({@code replica_status} when the primary has no GTIDs).
     *
     * @since 0.1
     */
    public static final String HEARTBEAT_TABLE = PREFIX + "heartbeat_table";

    /**
     * Consecutive failures to obtain a primary connection that open the primary circuit breaker. Integer
     * &ge; 0; default {@code 5}; {@code 0} disables the breaker.
     *
     * @since 0.1
     */
    public static final String PRIMARY_FAILURE_THRESHOLD = PREFIX + "primary_failure_threshold";

    /**
     * How long the open primary circuit breaker fails fast before it lets one trial connection through when
     * no replica monitor probes the primary (the monitor tries one every {@link #PROBE_INTERVAL}); with
     * {@link #PROBE_TIMEOUT}, how long an autocommit read that lost the primary waits for it during a failover.
     * Positive duration; default {@code 5s}.
     *
     * @since 0.1
     */
    public static final String PRIMARY_COOL_DOWN = PREFIX + "primary_cool_down";

    /**
     * Multi-tenancy: tenant identifiers separated by whitespace. Each tenant {@code T} is configured with
     * {@code hibernate.rwsplit.tenant.T.url}, {@code .user}, {@code .password} (its primary) and
     * {@code hibernate.rwsplit.tenant.T.replicas} (same format as {@link #REPLICAS}). Setting this key
     * installs a {@code MultiTenantConnectionProvider}; do not set {@link #REPLICAS} at the same time.
     *
     * @since 0.1
     */
    public static final String TENANTS = PREFIX + "tenants";

    /** Per-tenant options, see {@link #TENANTS}. @since 0.1 */
    public static final String TENANT_PREFIX = PREFIX + "tenant.";

    /**
     * The time source: an {@link io.rwsplit.spi.Clock} object in the settings map. For tests and
     * simulations; default the system clock.
     *
     * @since 0.1
     */
    public static final String CLOCK = PREFIX + "clock";

    /**
     * Where the routing connection learns about transactions that do not pass through
     * {@code Connection#setAutoCommit}, i.e. JTA transactions. Value: an {@link io.rwsplit.spi.TransactionStatus}
     * object, a {@code jakarta.transaction.TransactionSynchronizationRegistry} object (the usual choice: an
     * active or marked-for-rollback transaction is read-write from its first statement), or the name of a
     * {@code TransactionStatus} class with a public no-argument constructor. Default: none, JDBC
     * transactions only. Required when the unit uses JTA transactions, otherwise startup fails; also required
     * with {@code hibernate.connection.provider_disables_autocommit=true} (as Quarkus sets it), which removes the
     * {@code setAutoCommit(false)} call that marks a JDBC transaction's start.
     *
     * @since 0.1
     */
    public static final String TRANSACTION_STATUS = PREFIX + "transaction_status";

    /**
     * Where a session without its own intent finds the intent of the current unit of work (a container's
     * {@code @ReadReplica} / {@code @UsePrimary} interceptors). Value: an {@link io.rwsplit.spi.RoutingIntentSource}
     * object or the name of such a class with a public no-argument constructor. Default: none.
     *
     * @since 0.1
     */
    public static final String INTENT_SOURCE = PREFIX + "intent_source";

    /**
     * Whether entities read from a replica may be put into the second-level cache. Default {@code false}:
     * while the results of a replica read are processed, the session's cache mode is {@code GET} (or
     * {@code IGNORE}), so a lagging replica never seeds the shared cache with old state; entities read
     * from the primary are cached as usual. Set {@code true} to let replica reads fill the cache.
     *
     * @since 0.1
     */
    public static final String REPLICA_CACHE_PUTS = PREFIX + "replica_cache_puts";

    /**
     * The default consistency level of every session: {@code read_your_writes} (default), {@code strong},
     * {@code eventual} or {@code bounded_staleness:<duration>} (e.g. {@code bounded_staleness:PT0.5S} or {@code bounded_staleness:500ms}),
     * or an {@link Consistency} object. A session changes its own with {@code RwSplit.consistency(...)}.
     *
     * @since 0.1
     */
    public static final String CONSISTENCY = PREFIX + "consistency";

    /**
     * Whose writes a READ_YOUR_WRITES read of a session without a named scope sees: {@code unit} (default:
     * every write the persistence unit committed before the read began, in any earlier session; with the
     * {@code redis} store also the writes of other application instances) or {@code session} (only the
     * session's own writes: a new session, such as the page after a redirect, may read from a lagging
     * replica). A named scope ({@code RwSplit.scope}, {@link #SCOPE_RESOLVER}) replaces the default for its
     * sessions: they see their scope's writes, not necessarily others'. See docs/consistency.md.
     *
     * @since 0.1
     */
    public static final String CONSISTENCY_SCOPE = PREFIX + "consistency_scope";
    /**
     * How READ_YOUR_WRITES is honoured: {@code auto} (default: {@code gtid} when the primary is MariaDB,
     * MySQL or PostgreSQL, else {@code time}), {@code gtid} (a replica that applied the scope's last write, else
     * the primary; exact positions are GTIDs on MariaDB and MySQL and WAL positions, LSNs, on PostgreSQL) or
     * {@code time} (the primary until the scope's last commit plus {@link #READ_YOUR_WRITES_WINDOW}).
     *
     * @since 0.1
     */
    public static final String READ_YOUR_WRITES = PREFIX + "read_your_writes";

    /**
     * Time mode: how long after a scope's last commit its reads stay on the primary. A duration, not
     * negative; default {@code PT2S} (well above the replication lag of a healthy replica, which is
     * measured in milliseconds; a replica lagging more is a health problem, see the README).
     *
     * @since 0.1
     */
    public static final String READ_YOUR_WRITES_WINDOW = PREFIX + "read_your_writes_window";

    /**
     * GTID mode: how long a read may wait ({@code MASTER_GTID_WAIT} / {@code WAIT_FOR_EXECUTED_GTID_SET}) for a
     * replica to apply the scope's last write before it reads from the primary instead. A duration, not
     * negative ({@code 0}: never wait, only use replicas already known to have applied it); default
     * {@code PT0.2S}. A replica that cannot apply the write within this timeout (by its measured lag, or
     * because a wait on it timed out less than a second ago) is not waited for: the read goes to the primary
     * at once (reason {@code ..._CAUSAL_BEHIND_PRIMARY}).
     *
     * @since 0.1
     */
    public static final String CAUSAL_WAIT_TIMEOUT = PREFIX + "causal_wait_timeout";

    /**
     * What a read does that must see a write a failover of the primary lost (the old primary acknowledged it before
     * any replica had it): {@code fail} (default: it throws {@link LostWriteException}, once per session, named scope
     * and token) or {@code log} (it reads the new primary's data, and is logged at WARN and counted in
     * {@code RoutingStatistics.lostWriteReads()}), for applications that prefer old data to an error. Either way the
     * failover is logged at ERROR and counted. See docs/health.md.
     *
     * @since 0.1
     */
    public static final String LOST_WRITES = PREFIX + "lost_writes";

    /**
     * The key that signs consistency tokens ({@code RwSplit.token}), at least 32 characters, the same on every
     * instance that reads the others' tokens. Default: a random key per JVM (a token from another instance is then
     * not trusted: its reads go to the primary). The Spring module uses {@code spring.rwsplit.web.cookie.secret} for
     * it too. Tokens of the earlier unsigned format are still read when plausible (see docs/consistency.md).
     *
     * @since 0.1
     */
    public static final String TOKEN_SECRET = PREFIX + "token_secret";

    /**
     * Where the last write of each named consistency scope is kept: {@code memory} (default: this JVM),
     * {@code redis} (shared by every instance using {@link #REDIS_URL}; needs {@code io.lettuce:lettuce-core}),
     * the class name of an {@link io.rwsplit.spi.ConsistencyStore} with a public no-argument constructor, or an
     * instance in the settings map.
     *
     * @since 0.1
     */
    public static final String CONSISTENCY_STORE = PREFIX + "consistency_store";

    /**
     * The Redis server of the {@code redis} store, a Lettuce URI such as {@code redis://127.0.0.1:6379/0}.
     * Required with {@code consistency_store=redis}.
     *
     * @since 0.1
     */
    public static final String REDIS_URL = PREFIX + "redis_url";

    /**
     * How long the store keeps a scope's last write; after that the scope reads like any other. A positive
     * duration; default {@code PT1M}. Must be longer than the worst replication lag you tolerate.
     *
     * @since 0.1
     */
    public static final String CONSISTENCY_STORE_TTL = PREFIX + "consistency_store_ttl";

    /**
     * The most scopes the {@code memory} store keeps; beyond it the entries closest to expiry are dropped
     * first (their readers then only lose protection after a shorter time). Also the most scopes whose writes
     * wait, on this instance, for a shared store that does not answer; beyond it reads of every scope use the
     * primary until they are written. Integer &ge; 1; default 100000.
     *
     * @since 0.1
     */
    public static final String CONSISTENCY_STORE_MAX_SCOPES = PREFIX + "consistency_store_max_scopes";

    /**
     * Names the consistency scope of new sessions: the class name of an {@link io.rwsplit.spi.ScopeResolver}
     * with a public no-argument constructor, or an instance in the settings map. Default: none (each session
     * is its own scope unless {@code RwSplit.scope(...)} names one).
     *
     * @since 0.1
     */
    public static final String SCOPE_RESOLVER = PREFIX + "scope_resolver";
}
