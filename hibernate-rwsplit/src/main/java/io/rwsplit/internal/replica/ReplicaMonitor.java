package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.DriverTimeouts;
import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.config.Secrets;
import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.health.GtidReader;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.health.LagProbes;
import io.rwsplit.internal.health.PrimaryTask;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.internal.health.ServerRole;
import io.rwsplit.internal.health.SessionSettingsCheck;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * Probes every replica of one replica set on its own schedule (a fixed delay of {@code probe_interval})
 * on a small pool of daemon threads named {@code rwsplit-monitor-LABEL-N}, and feeds the results to the
 * {@link ReplicaSet}, which publishes the health snapshot. Each replica has one dedicated probe
 * connection (not taken from its pool), opened with {@code probe_timeout} as connect and network
 * timeout and reopened after a failure. A lag probe that needs the primary (heartbeat, gtid) gets one
 * more task that borrows a primary connection every interval. One more task watches the primary every
 * interval: it gives an open {@link PrimaryBreaker} its trial ({@link PrimaryBreaker#probe()}) and notices
 * when another server answers the primary URL (a failover); a listed replica that has become the primary
 * is reported as such ({@link ReplicaState#PRIMARY}) and receives no reads. A replica its probes find DOWN (it stopped
 * answering) has the connections lent to it aborted, so that reads blocked on a frozen server fail over.
 */
public final class ReplicaMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaMonitor.class);

    private final ReplicaSet replicas;
    private final List<ReplicaConfig> configs;
    private final HealthConfig config;
    private final PrimarySource primary;
    private final LagProbe probe;
    private final GtidReader gtid = new GtidReader();
    private final Connection[] connections;
    private final ScheduledThreadPoolExecutor executor;
    /** The probe pool's threads (at most its core size: scheduled tasks never end a worker), joined by {@link #close}. */
    private final java.util.Queue<Thread> workers = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Aborts the connections lent to a replica that stopped answering, one thread each, none kept when idle. */
    private final java.util.concurrent.ThreadPoolExecutor aborter;
    private final Positions positions;
    /** Per replica: the position its last probe read (to notice one that went backwards), written by its probe only. */
    private final GtidPosition[] lastPositions;
    /** Per replica: whether it was reported, once, as having no position to track. */
    private final boolean[] reportedNoPosition;
    /** Per replica: whether its session settings were compared with the primary's, written by its probe only. */
    private final boolean[] settingsCompared;
    private volatile boolean primaryTaskFailing;
    /** Told the new primary's positions when another server answers the primary URL (a failover). */
    private final PrimaryChange primaryChanged;
    private final PrimaryAnswers primaryAnswers;
    private final Clock clock;
    /** The primary's identity as last seen ({@link ServerRole}), or null before the first look. */
    private volatile String primaryIdentity;
    /** The new primary whose failover look last failed to read its positions (logged once for it); monitor thread only. */
    private String lookFailedFor;
    /** Which server a connection of the primary URL is on ({@link io.rwsplit.internal.health.ServerAddress}). */
    private final io.rwsplit.internal.health.ServerAddress addresses = io.rwsplit.internal.health.ServerAddress.ofDrivers();

    /** Told, when another server answers the primary URL (a failover), what it has. */
    @FunctionalInterface
    public interface PrimaryChange {
        /**
         * Another server answers the primary URL, seen at {@code asOfMicros} (epoch micros), before its position is
         * read: a write committed on it before then is in that position. Returns what to tell once it is read.
         */
        Seen seen(long asOfMicros);

        /** A failover seen, told what the new primary has. */
        @FunctionalInterface
        interface Seen {
            /**
             * @param position its position now (null when it has none)
             * @param survived what it holds of the old primary's history: what it replicated before its promotion
             *                 ({@link GtidReader#survived}), else its position now
             */
            void changed(GtidPosition position, GtidPosition survived);
        }
    }

    /** Told the position each probe of a replica reads, with the replica's epoch from before the probe asked. */
    @FunctionalInterface
    public interface Positions {
        void observed(int replica, GtidPosition position, long epoch);
    }

    /**
     * @param configs the replicas' configurations, in the order of {@code replicas.nodes()}
     * @param primary where the heartbeat or GTID sample of the primary is taken
     */
    public ReplicaMonitor(ReplicaSet replicas, List<ReplicaConfig> configs, HealthConfig config, PrimarySource primary,
                          Clock clock) {
        this(replicas, configs, config, primary, clock, (index, position, epoch) -> { });
    }

    /**
     * @param positions told every GTID position a probe reads, with the replica's index (read-your-writes
     *                  then knows which replica already applied a write without asking it)
     */
    public ReplicaMonitor(ReplicaSet replicas, List<ReplicaConfig> configs, HealthConfig config, PrimarySource primary,
                          Clock clock, Positions positions) {
        this(replicas, configs, config, primary, clock, positions, asOfMicros -> (position, survived) -> { });
    }

    /**
     * @param positions      told every GTID position a probe reads, with the replica's index and epoch
     * @param primaryChanged told the new primary's positions when another server answers the primary URL: a
     *                       failover happened, positions learned before must be re-based
     */
    public ReplicaMonitor(ReplicaSet replicas, List<ReplicaConfig> configs, HealthConfig config, PrimarySource primary,
                          Clock clock, Positions positions, PrimaryChange primaryChanged) {
        this(replicas, configs, config, primary, clock, positions, primaryChanged, (writable, askedAtNanos, address, identity) -> { });
    }

    /** Told, every probe interval, whether a server that takes writes answers the primary URL (false: read-only, or none). */
    @FunctionalInterface
    public interface PrimaryAnswers {
        /**
         * @param askedAtNanos {@link Clock#nanoTime()} when the monitor obtained the connection it asked on
         * @param address      the server that connection was on ({@link io.rwsplit.internal.health.ServerAddress}),
         *                     or null when its driver cannot say
         * @param identity     the primary's identity there ({@link ServerRole#primaryIdentity}), or null
         */
        void answered(boolean writable, long askedAtNanos, Object address, String identity);
    }

    /**
     * @param primaryAnswers told, each time the monitor reaches the primary URL (after a re-base it causes), whether
     *                       the server there is writable: a read-only one is a replica a multi-host URL led to
     */
    public ReplicaMonitor(ReplicaSet replicas, List<ReplicaConfig> configs, HealthConfig config, PrimarySource primary,
                          Clock clock, Positions positions, PrimaryChange primaryChanged,
                          PrimaryAnswers primaryAnswers) {
        this.primaryAnswers = primaryAnswers;
        this.clock = clock;
        this.primaryChanged = primaryChanged;
        this.positions = positions;
        this.lastPositions = new GtidPosition[configs.size()];
        this.reportedNoPosition = new boolean[configs.size()];
        this.settingsCompared = new boolean[configs.size()];
        this.replicas = replicas;
        this.configs = List.copyOf(configs);
        this.config = config;
        this.primary = primary;
        String probeName = LagProbes.resolve(config.lagProbe(), configs);
        this.probe = LagProbes.create(probeName, config, gtid, clock, replicas.label());
        this.connections = new Connection[configs.size()];
        int threads = Math.min(4, configs.size() + (probe instanceof PrimaryTask ? 1 : 0) + 1);
        this.executor = new ScheduledThreadPoolExecutor(threads, daemonThreads("rwsplit-monitor-" + replicas.label() + "-",
                workers));
        executor.setRemoveOnCancelPolicy(true);
        this.aborter = new java.util.concurrent.ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS,
                new java.util.concurrent.SynchronousQueue<>(), daemonThreads("rwsplit-abort-" + replicas.label() + "-",
                        null));
        log.debug("[{}] replica monitor: lag probe {}{}, every {} ms, max_lag {} ms, failure_threshold {}, recovery_period {} ms",
                replicas.label(), probe, config.lagProbe().equals("auto") ? " (auto)" : "", config.probeInterval().toMillis(),
                config.maxLag().toMillis(), config.failureThreshold(), config.recoveryPeriod().toMillis());
    }

    /** {@code primary} behind a {@link PrimaryBreaker}, unless {@code primary_failure_threshold} is 0. */
    public static PrimarySource protect(String label, PrimarySource primary, HealthConfig config, Clock clock) {
        return config.primaryFailureThreshold() == 0 ? primary
                : new PrimaryBreaker(label, primary, config.primaryFailureThreshold(), config.primaryCoolDown(), clock);
    }

    /** Starts probing; returns at once. */
    public ReplicaMonitor start() {
        long interval = config.probeInterval().toNanos();
        if (probe instanceof PrimaryTask task) {
            executor.scheduleWithFixedDelay(() -> onPrimary(task), 0, interval, TimeUnit.NANOSECONDS);
        }
        executor.scheduleWithFixedDelay(this::watchPrimary, 0, interval, TimeUnit.NANOSECONDS);
        for (ReplicaNode node : replicas.nodes()) {
            executor.scheduleWithFixedDelay(() -> probe(node), 0, interval, TimeUnit.NANOSECONDS);
        }
        return this;
    }

    /**
     * Probes one replica once and reports the result to the replica set. A failure (the replica set then
     * forgets what the replica told before) closes the probe connection; the next probe opens a new one.
     */
    void probe(ReplicaNode node) {
        int i = node.index();
        ServerEpochs epochs = replicas.epochs();
        long epoch = epochs.current(i);     // before asking: the answer is true of the server as it is now
        try {
            Connection c = connections[i];
            if (c == null) {
                c = open(configs.get(i));
                connections[i] = c;
                replicas.checkServerRun(node, c);
            }
            LagSample sample = probe.measure(node.name(), c);
            ServerRole.Role role = ServerRole.roleOf(c, gtid.flavour(c), primaryIdentity);
            if (role.promotedBecause() != null) {
                replicas.actsAsPrimary(node, role.promotedBecause());
                return;
            }
            replicas.acceptsWrites(node, role.acceptsWrites());
            GtidPosition position = position(node, c);
            if (position != null && wentBackwards(i, position)) {
                log.info("[{}] replica '{}' is at {}, behind the {} it reported before (restarted or replaced):"
                        + " what it told before is forgotten", replicas.label(), node.name(), position, lastPositions[i]);
                epoch = epochs.forget(i);
            }
            lastPositions[i] = position;
            replicas.probed(node, sample, position);
            if (position != null) {
                positions.observed(i, position, epoch);
            }
            if (!settingsCompared[i]) {
                settingsCompared[i] = compareSessionSettings(node, gtid.flavour(c));
            }
        }
        catch (SQLException | RuntimeException e) {
            closeQuietly(connections[i]);
            connections[i] = null;
            lastPositions[i] = null;
            if (replicas.probeFailed(node, e)) {
                abortLent(node);
            }
        }
    }

    /**
     * After the first probe that reaches a replica (at startup, or once a replica that was down answers): compares the
     * session settings of a connection from its pool with those of a primary connection, as the application's sessions
     * get them (after each pool's init SQL), and warns once when they differ: its reads would answer otherwise.
     *
     * @return whether the comparison is done (also when the settings could not be read); false when no connection
     *         could be had, so that the next probe tries again
     */
    private boolean compareSessionSettings(ReplicaNode node, GtidReader.Flavour flavour) {
        if (!SessionSettingsCheck.knows(flavour)) {
            return true;
        }
        Connection r;
        Connection p;
        try {
            r = node.dataSource().getConnection();
        }
        catch (SQLException | RuntimeException e) {
            log.debug("[{}] no connection from the pool of replica '{}' to compare its session settings (the next probe"
                    + " tries again): {}", replicas.label(), node.name(), Secrets.describe(e));
            return false;
        }
        try {
            p = primary.acquire();
        }
        catch (SQLException | RuntimeException e) {
            closeQuietly(r);
            log.debug("[{}] no primary connection to compare the session settings of replica '{}' with (the next probe"
                    + " tries again): {}", replicas.label(), node.name(), Secrets.describe(e));
            return false;
        }
        List<SessionSettingsCheck.Difference> differences;
        try {
            differences = SessionSettingsCheck.compare(p, r, flavour);
        }
        catch (SQLException | RuntimeException e) {
            log.debug("[{}] could not compare the session settings of replica '{}' with the primary's: {}",
                    replicas.label(), node.name(), Secrets.describe(e));
            return true;
        }
        finally {
            release(p);
            closeQuietly(r);
        }
        if (differences.isEmpty()) {
            log.debug("[{}] replica '{}' answers with the primary's session settings", replicas.label(), node.name());
        }
        else {
            String fix = configs.get(node.index()).dataSource() == null
                    ? "the replica pools' '" + RwSplitSettings.POOL_PREFIX + "connectionInitSql'"
                    : "the init SQL of the replica's own DataSource";
            log.warn(SessionSettingsCheck.warning(replicas.label(), node.name(), differences, fix));
        }
        return true;
    }

    /**
     * The replica is DOWN because it stopped answering the monitor: the connections lent to it may wait for it
     * forever (a paused server, a partition: nothing closes their sockets). Each is aborted on a thread of its own (a
     * driver may block in abort: MariaDB Connector/J connects to the server to send {@code KILL}, bounded by the
     * connect timeout), so a read blocked on it fails with a connection error and, when it is an autocommit read
     * that returned no rows yet, runs again elsewhere.
     */
    private void abortLent(ReplicaNode node) {
        int[] aborted = {0};
        node.takeLent(connection -> {
            aborted[0]++;
            try {
                aborter.execute(() -> abort(node, connection));
            }
            catch (java.util.concurrent.RejectedExecutionException closing) {
                // the monitor is closing: so is the application
            }
        });
        if (aborted[0] > 0) {
            log.warn("[{}] replica '{}' does not answer: aborting the {} connection(s) lent to it (autocommit reads on"
                    + " them that returned no rows yet run again elsewhere)", replicas.label(), node.name(), aborted[0]);
        }
    }

    private void abort(ReplicaNode node, Connection connection) {
        try {
            connection.abort(Runnable::run);
        }
        catch (SQLException | RuntimeException e) {
            log.debug("[{}] aborting a connection to replica '{}' failed: {}", replicas.label(), node.name(),
                    Secrets.describe(e));
        }
    }

    private boolean wentBackwards(int i, GtidPosition position) {
        GtidPosition last = lastPositions[i];
        try {
            return last != null && !position.contains(last);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            return true;
        }
    }

    /**
     * The replica's position, or null: when the database has none (said once per replica, at INFO) or the query
     * failed (this probe of this replica only: the next probe asks again).
     */
    private GtidPosition position(ReplicaNode node, Connection c) {
        try {
            GtidPosition position = gtid.replica(c);
            if (position == null && !reportedNoPosition[node.index()]) {
                reportedNoPosition[node.index()] = true;
                log.info("[{}] replica '{}' reports no replication position (no GTID or WAL replay position):"
                        + " read-your-writes cannot know it caught up without asking it", replicas.label(), node.name());
            }
            return position;
        }
        catch (SQLException | RuntimeException e) {
            log.debug("[{}] reading the position of replica '{}' failed in this probe: {}", replicas.label(), node.name(),
                    Secrets.describe(e));
            return null;
        }
    }

    /**
     * Every probe interval: gives an open primary breaker its trial (so it closes as soon as the primary, a new
     * one after a failover, answers, not after its cool-down), then looks at who answers the primary URL. When
     * another server does, positions learned from the old primary are re-based on the new one's; a read-only
     * server is not the primary yet ({@link ServerRole#primaryIdentity}), so the re-base waits for its promotion.
     */
    void watchPrimary() {
        if (primary instanceof PrimaryBreaker breaker) {
            breaker.probe();
        }
        Connection c = null;
        long askedAt = clock.nanoTime();
        try {
            c = primary.acquire();
            askedAt = clock.nanoTime();
            GtidReader.Flavour flavour = gtid.flavour(c);
            String identity = ServerRole.primaryIdentity(c, flavour);
            // MariaDB and MySQL have no identity while read-only; elsewhere a server that answers is the primary
            boolean writable = identity != null || (flavour != GtidReader.Flavour.MARIADB && flavour != GtidReader.Flavour.MYSQL);
            String before = primaryIdentity;
            if (identity != null && !identity.equals(before)) {
                if (before == null) {
                    primaryIdentity = identity;
                }
                else {
                    long asOfMicros = clock.epochMicros();   // before the position: what committed earlier is in it
                    PrimaryChange.Seen seen = primaryChanged.seen(asOfMicros);
                    GtidPosition position;
                    GtidPosition survived;
                    try {
                        position = gtid.primaryAtFailover(c);
                        survived = gtid.survived(c, position);
                    }
                    catch (SQLException | RuntimeException e) {
                        // looked at again at the next interval (the identity is not taken for seen yet)
                        if (!identity.equals(lookFailedFor)) {
                            lookFailedFor = identity;
                            log.warn("[{}] another server answers as the primary ({} -> {}), and its position could not"
                                    + " be read ({}): looked at again every probe interval", replicas.label(), before,
                                    identity, Secrets.describe(e));
                        }
                        throw e;
                    }
                    // once its positions are read: told once, even if what follows throws
                    primaryIdentity = identity;
                    log.warn("[{}] another server answers as the primary ({} -> {}): a failover; what reads must see is"
                            + " re-based on the new primary's position {}", replicas.label(), before, identity, position);
                    seen.changed(position, survived);
                }
            }
            primaryAnswers.answered(writable, askedAt, writable ? addresses.of(c) : null, identity);
        }
        catch (SQLException e) {
            // the primary is away: the breaker counts the failure, the next interval looks again; no writable
            // server answers meanwhile (a pool that is only busy says nothing of the server)
            if (ConnectionErrors.isConnectionError(e)) {
                primaryAnswers.answered(false, askedAt, null, null);
            }
        }
        catch (RuntimeException e) {
            // as above, without telling anything
        }
        finally {
            release(c);
        }
    }

    private void onPrimary(PrimaryTask task) {
        Connection c = null;
        try {
            c = primary.acquire();
            task.run(c);
            if (primaryTaskFailing) {
                primaryTaskFailing = false;
                log.info("[{}] {} on the primary works again", replicas.label(), probe);
            }
        }
        catch (SQLException | RuntimeException e) {
            if (!primaryTaskFailing) {
                primaryTaskFailing = true;
                log.warn("[{}] {} on the primary failed (replica lag is measured again once it works;"
                        + " see setting 'hibernate.rwsplit.lag_probe'): {}", replicas.label(), probe, Secrets.describe(e));
            }
        }
        finally {
            release(c);
        }
    }

    private Connection open(ReplicaConfig replica) throws SQLException {
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, config.probeTimeout().toMillis());
        Connection c;
        if (replica.dataSource() != null) {
            c = replica.dataSource().getConnection();
        }
        else {
            Properties props = new Properties();
            if (replica.user() != null) {
                props.setProperty("user", replica.user());
            }
            if (replica.password() != null) {
                props.setProperty("password", replica.password());
            }
            // connect and socket timeouts in the driver's own units (pgjdbc: seconds; MariaDB, MySQL: milliseconds)
            props.putAll(DriverTimeouts.forUrl(replica.url(), config.probeTimeout()));
            c = DriverManager.getConnection(replica.url(), props);
        }
        try {
            c.setNetworkTimeout(Runnable::run, timeoutMillis);
        }
        catch (SQLException | UnsupportedOperationException e) {
            // the driver has no network timeout: the probe then relies on the connect timeout
        }
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        return c;
    }

    @Override
    public void close() {
        executor.shutdownNow();
        aborter.shutdown();
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.probeTimeout().toMillis() + 1000);
            boolean stopped = executor.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            // the pool terminates as its last worker leaves, a moment before that thread ends: wait for the threads too
            for (Thread worker : workers) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
                stopped &= !worker.isAlive();
            }
            if (!stopped) {
                log.warn("[{}] replica monitor threads did not stop in time", replicas.label());
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int i = 0; i < connections.length; i++) {
            closeQuietly(connections[i]);
            connections[i] = null;
        }
        if (probe instanceof PrimaryTask task && !primaryTaskFailing) {
            Connection c = null;
            try {
                c = primary.acquire();
                task.close(c);
            }
            catch (SQLException | RuntimeException e) {
                log.debug("[{}] could not clean up {} on the primary: {}", replicas.label(), probe, Secrets.describe(e));
            }
            finally {
                release(c);
            }
        }
    }

    private void release(Connection c) {
        if (c != null) {
            try {
                primary.release(c);
            }
            catch (SQLException | RuntimeException e) {
                log.debug("[{}] releasing a primary connection failed: {}", replicas.label(), Secrets.describe(e));
            }
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            }
            catch (SQLException | RuntimeException ignored) {
                // already broken
            }
        }
    }

    /** Daemon threads named {@code prefix} + a number; each is added to {@code created} when not null. */
    private static ThreadFactory daemonThreads(String prefix, java.util.Collection<Thread> created) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            if (created != null) {
                created.add(t);
            }
            return t;
        };
    }
}
