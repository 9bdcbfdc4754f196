package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.TestCluster;

/**
 * A replica that stops answering without closing a socket (its server SIGSTOPped, like a paused VM), on a real
 * cluster (one subclass per database). The monitor's probes time out and take it DOWN; the connections lent to it
 * are aborted then, so reads blocked on it fail over instead of waiting for it: {@value #READERS} threads reading
 * in a loop see no failure, and no read lasts anywhere near the 25 s {@link #FREEZE} (the {@link #BOUND} is what
 * detection and the abort may take, with a margin). Once thawed the replica comes back. The replica URLs carry the
 * password and no line the module logs (at DEBUG) from startup through the freeze and the thaw gives it away.
 */
abstract class FrozenReplicaContract {

    static final Duration PROBE_INTERVAL = Duration.ofMillis(250);
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    static final int FAILURE_THRESHOLD = 2;
    /** The replica pools' connectionTimeout (the module's default), which their driver connections get as connect timeout. */
    static final Duration POOL_CONNECTION_TIMEOUT = Duration.ofSeconds(2);
    /** Probe scheduling, the read run again elsewhere, and a loaded 2-core machine: generous, a hang is 25 s. */
    static final Duration MARGIN = Duration.ofMillis(5500);
    /**
     * The longest a read may take: {@code failure_threshold} probes that each time out after {@code probe_timeout}, an
     * interval apart, take the replica DOWN; the abort may connect once more (MariaDB Connector/J sends {@code KILL}),
     * bounded by the pool's connect timeout; then the margin. 10 s with these settings.
     */
    static final Duration BOUND = PROBE_TIMEOUT.plus(PROBE_INTERVAL).multipliedBy(FAILURE_THRESHOLD)
            .plus(POOL_CONNECTION_TIMEOUT).plus(MARGIN);

    /**
     * The replica connections' socket timeout the test sets, or null: a driver that cannot abort a read in flight
     * (MariaDB Connector/J) is bounded by it instead of the abort, so the bound is the larger of the two.
     */
    Duration socketTimeout() {
        return null;
    }

    /** The setting that gives replica connections {@link #socketTimeout()} in the driver's units. */
    String socketTimeoutSetting() {
        return null;
    }

    /** {@link #BOUND}, or the socket timeout and the margin when that is longer. */
    private Duration bound() {
        Duration socket = socketTimeout();
        return socket == null || socket.plus(MARGIN).compareTo(BOUND) < 0 ? BOUND : socket.plus(MARGIN);
    }
    /** How long replica1 stays frozen: far beyond {@link #BOUND}, so a read that waits for it is unmistakable. */
    static final Duration FREEZE = Duration.ofSeconds(25);
    static final int READERS = 6;
    static final double READ_SECONDS = 0.2;
    static final String FROZEN = TestCluster.replica(1);

    final TestCluster cluster;
    private EntityManagerFactory emf;
    private ExecutorService threads;
    private LogCapture logs;
    /** The node of each server identity. */
    private final Map<Integer, String> nodes = new ConcurrentHashMap<>();
    private final Queue<Read> reads = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean reading = new AtomicBoolean();

    FrozenReplicaContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** A read outside a transaction that takes {@code seconds} and returns the identity of the server that ran it. */
    abstract String slowRead(double seconds);

    /** The prefix of the lines this test prints. */
    abstract String label();

    /**
     * One read: when it started and ended ({@link System#nanoTime()}), the node that served it and the reason of its
     * last routing decision, or why it failed.
     */
    record Read(long startNanos, long endNanos, String server, RouteReason reason, RuntimeException failure) {

        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(endNanos - startNanos);
        }
    }

    @BeforeEach
    void identifyServersAndCollectLogs() throws SQLException {
        for (String node : cluster.nodes()) {
            nodes.put(cluster.serverIdentity(node), node);
        }
        threads = Executors.newFixedThreadPool(READERS);
        logs = LogCapture.attach("io.rwsplit", Level.DEBUG);
    }

    @AfterEach
    void stop() throws InterruptedException {
        reading.set(false);
        threads.shutdownNow();
        threads.awaitTermination(30, TimeUnit.SECONDS);
        if (emf != null) {
            emf.close();
        }
        logs.close();
    }

    private void factory() {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration(label())
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.namedReplicaUrlsWithCredentials())
                .property("hibernate.rwsplit.consistency", "eventual")
                .property("hibernate.rwsplit.probe_interval", PROBE_INTERVAL.toMillis() + "ms")
                .property("hibernate.rwsplit.probe_timeout", PROBE_TIMEOUT.toMillis() + "ms")
                .property("hibernate.rwsplit.failure_threshold", Integer.toString(FAILURE_THRESHOLD))
                .property("hibernate.rwsplit.pool.connectionTimeout", Long.toString(POOL_CONNECTION_TIMEOUT.toMillis()));
        if (socketTimeout() != null) {
            cfg.property(socketTimeoutSetting(), Long.toString(socketTimeout().toMillis()));
        }
        emf = cfg.createEntityManagerFactory();
        HealthContract.awaitMillis(Duration.ofSeconds(10), () -> RwSplit.health(emf).replicas().stream()
                .allMatch(s -> s.observedAtNanos() != 0 && s.isUp()), "both replicas probed and UP");
    }

    /** Starts {@link #READERS} threads that read in a loop, each read in a new EntityManager, until {@link #reading} ends. */
    private List<Future<?>> startReaders() {
        reading.set(true);
        List<Future<?>> readers = new ArrayList<>();
        for (int i = 0; i < READERS; i++) {
            readers.add(threads.submit(() -> {
                while (reading.get()) {
                    long start = System.nanoTime();
                    String server = null;
                    RouteReason reason = null;
                    RuntimeException failure = null;
                    try (EntityManager em = emf.createEntityManager()) {
                        int id = ((Number) em.createNativeQuery(slowRead(READ_SECONDS)).getSingleResult()).intValue();
                        server = nodes.getOrDefault(id, "server " + id);
                        RouteDecision last = RwSplit.statistics(em).lastDecision();
                        reason = last == null ? null : last.reason();
                    }
                    catch (RuntimeException e) {
                        failure = e;
                    }
                    reads.add(new Read(start, System.nanoTime(), server, reason, failure));
                }
            }));
        }
        return readers;
    }

    private long servedBy(String node) {
        return reads.stream().filter(r -> node.equals(r.server())).count();
    }

    private ReplicaState frozenState() {
        return RwSplit.health(emf).status(FROZEN).state();
    }

    /** Polls every 10 ms until the condition holds; the elapsed milliseconds, or -1 at the deadline. */
    private static long millisUntil(Duration deadline, BooleanSupplier condition) throws InterruptedException {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > deadline.toNanos()) {
                return -1;
            }
            Thread.sleep(10);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void readsOnAFrozenReplicaFinishElsewhereWithinTheDetectionBoundAndNoneFails() throws Exception {
        factory();
        List<Future<?>> readers = startReaders();
        long freezeCalled;
        long frozenAt;
        long downAt = 0;
        long thawedAt;
        try {
            HealthContract.awaitMillis(Duration.ofSeconds(15), () -> servedBy(FROZEN) >= 3 && reads.size() >= 2 * READERS,
                    "reads flowing, some of them served by " + FROZEN);
            freezeCalled = System.nanoTime();
            cluster.freeze(1);
            frozenAt = System.nanoTime();
            try {
                // the freeze lasts FREEZE whatever happens; meanwhile, every 10 ms: is replica1 DOWN yet?
                long end = frozenAt + FREEZE.toNanos();
                while (System.nanoTime() - end < 0) {
                    if (downAt == 0 && frozenState() == ReplicaState.DOWN) {
                        downAt = System.nanoTime();
                    }
                    Thread.sleep(10); // the sample rate over a timed freeze, not a wait for an effect
                }
            }
            finally {
                cluster.thaw(1);
                thawedAt = System.nanoTime();
            }
        }
        finally {
            reading.set(false);
            for (Future<?> reader : readers) {
                reader.get(FREEZE.toSeconds() + 30, TimeUnit.SECONDS);
            }
        }
        long backMillis = millisUntil(Duration.ofSeconds(30), () -> frozenState() == ReplicaState.UP);

        List<Read> all = List.copyOf(reads);
        List<Read> failed = all.stream().filter(r -> r.failure() != null).toList();
        Read slowest = all.stream().max(Comparator.comparingLong(Read::millis)).orElseThrow();
        Map<String, Long> byServer = new TreeMap<>();
        for (Read read : all) {
            byServer.merge(read.failure() != null ? "failed" : read.server(), 1L, Long::sum);
        }
        long downFrom = downAt;
        // reads routed once replica1 was seen DOWN, before the thaw could bring it back
        List<Read> onFrozenAfterDown = all.stream()
                .filter(r -> downFrom != 0 && r.startNanos() >= downFrom && r.startNanos() < thawedAt)
                .filter(r -> FROZEN.equals(r.server())).toList();
        // reads under way when replica1 froze that waited for it, then succeeded elsewhere
        List<Read> heldUp = all.stream()
                .filter(r -> r.startNanos() < freezeCalled && r.endNanos() - freezeCalled > TimeUnit.SECONDS.toNanos(1))
                .filter(r -> r.failure() == null && !FROZEN.equals(r.server())).toList();
        Map<String, Long> reasons = new TreeMap<>(RwSplit.statistics(emf).byReason());
        long retries = reasons.getOrDefault(RouteReason.RETRY_REPLICA.name(), 0L)
                + reasons.getOrDefault(RouteReason.RETRY_PRIMARY.name(), 0L);
        long downMillis = downAt == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(downAt - frozenAt);
        // what the abort and the read run again took: how long after DOWN the held-up reads ended
        LongSummaryStatistics afterDown = heldUp.stream().filter(r -> downFrom != 0)
                .mapToLong(r -> TimeUnit.NANOSECONDS.toMillis(r.endNanos() - downFrom)).summaryStatistics();
        String heldUpEnds = afterDown.getCount() == 0 ? "-" : afterDown.getMin() + ".." + afterDown.getMax() + " ms";
        print("%d readers of %.1f s reads, %s frozen %d s: %d reads, per server %s; max read %d ms (bound %d ms = %d x"
                        + " (probe_timeout %d ms + probe_interval %d ms) + pool connectionTimeout %d ms + margin %d ms, or socket"
                        + " timeout %s + margin),"
                        + " slowest served by %s (%s); %s DOWN %d ms after the freeze, back UP %d ms after the thaw; %d reads"
                        + " held up by the freeze, ending %s after DOWN; reasons %s; %d log lines",
                READERS, READ_SECONDS, FROZEN, FREEZE.toSeconds(), all.size(), byServer, slowest.millis(),
                bound().toMillis(), FAILURE_THRESHOLD, PROBE_TIMEOUT.toMillis(), PROBE_INTERVAL.toMillis(),
                POOL_CONNECTION_TIMEOUT.toMillis(), MARGIN.toMillis(), socketTimeout(),
                slowest.failure() != null ? "none (failed)" : slowest.server(), slowest.reason(), FROZEN, downMillis,
                backMillis, heldUp.size(), heldUpEnds, reasons, logs.lines().size());

        assertEquals(List.of(), failed.stream().map(r -> HealthContract.messages(r.failure())).toList(), "no read fails");
        assertTrue(slowest.millis() <= bound().toMillis(), "every read finished within " + bound().toMillis()
                + " ms of its start, not when the replica thawed: the slowest took " + slowest.millis() + " ms");
        assertTrue(downAt != 0, FROZEN + " went DOWN during the " + FREEZE.toSeconds() + " s freeze");
        assertEquals(List.of(), onFrozenAfterDown, "reads that started once " + FROZEN + " was DOWN went elsewhere");
        assertTrue(!heldUp.isEmpty() || retries > 0, "some read was in flight on " + FROZEN + " when it froze and"
                + " finished elsewhere (held up " + heldUp.size() + ", retries " + reasons + ")");
        assertTrue(backMillis >= 0, FROZEN + " back UP within 30 s of the thaw, state " + frozenState());
        LoggedPasswords.assertNoneLogged(logs, cluster);
    }

    void print(String format, Object... args) {
        System.out.printf("[" + label() + "] " + format + "%n", args);
    }
}
