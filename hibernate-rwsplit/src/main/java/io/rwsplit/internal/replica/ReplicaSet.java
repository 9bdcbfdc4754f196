package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.internal.config.Secrets;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.internal.health.HealthPolicy;
import io.rwsplit.internal.health.HealthTracker;
import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagSample;
import io.rwsplit.spi.LoadBalancer;

/**
 * The replicas of one primary and their health. Routing threads read an immutable {@link Snapshot}
 * from a volatile field; the writers (the health monitor after each probe, a read that hit a broken
 * replica) feed the per-replica {@link HealthTracker}s and replace the snapshot wholesale under a lock
 * that the hot path never takes.
 */
public final class ReplicaSet {

    private static final Logger log = LoggerFactory.getLogger(ReplicaSet.class);

    private final String label;
    private final List<ReplicaNode> nodes;
    private final List<String> names;
    private final LoadBalancer balancer;
    /** Whether the statements in progress on each replica are counted: the balancer reads them. */
    private final boolean countsInFlight;
    private final Clock clock;
    private final HealthTracker[] trackers;
    private final ServerEpochs epochs;
    private volatile Snapshot snapshot;

    /**
     * @param candidates the UP replicas of the best tier, in configuration order; the same list instance
     *                   as long as the set of candidates does not change (load balancers may cache by it)
     * @param health     the public view
     */
    record Snapshot(List<ReplicaNode> candidates, ReplicaHealth health) {
    }

    public ReplicaSet(String label, List<ReplicaNode> nodes, LoadBalancer balancer, Clock clock, HealthPolicy policy) {
        this.label = label;
        this.nodes = List.copyOf(nodes);
        List<String> n = new ArrayList<>();
        for (ReplicaNode node : nodes) {
            n.add(node.name());
        }
        this.names = List.copyOf(n);
        this.balancer = balancer;
        this.countsInFlight = balancer.readsInFlight();
        this.clock = clock;
        this.trackers = new HealthTracker[nodes.size()];
        this.epochs = new ServerEpochs(nodes.size());
        for (ReplicaNode node : nodes) {
            trackers[node.index()] = new HealthTracker(node.name(), policy);
        }
        this.snapshot = snapshot(List.of());
    }

    /**
     * Whether statements count themselves in their replica's {@link ReplicaNode#inFlightCounter()} while they run:
     * only when the load balancer reads it ({@link LoadBalancer#readsInFlight()}).
     */
    public boolean countsInFlight() {
        return countsInFlight;
    }

    public String label() {
        return label;
    }

    public List<ReplicaNode> nodes() {
        return nodes;
    }

    public List<String> names() {
        return names;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * The replicas' epochs, by {@link ReplicaNode#index()}: what was learned from a replica holds only while its
     * epoch does. A failed probe or a connection error on a read forgets it (the server may have restarted).
     */
    /**
     * Before {@code c}, a connection just borrowed from {@code node} or opened by its probe, is used: on its physical
     * connection's first use, asks when the server started; a start time other than the one its connections said
     * before means it restarted (or was replaced) since, however fast: what it told before (positions it applied) is
     * forgotten now, not at the next failed probe. A server that cannot say is not asked again. A connection error
     * while asking is thrown: the connection is broken (its pool may have marked it so), and the caller must not use
     * it for a read.
     */
    public void checkServerRun(ReplicaNode node, Connection c) throws SQLException {
        Connection physical;
        try {
            physical = c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
        }
        catch (SQLException e) {
            physical = c;
        }
        if (!node.firstUse(physical)) {
            return;
        }
        io.rwsplit.internal.health.ServerStart.Run run;
        try {
            run = io.rwsplit.internal.health.ServerStart.of(c);
        }
        catch (SQLException e) {
            if (io.rwsplit.internal.health.ConnectionErrors.isConnectionError(e)) {
                throw e;
            }
            log.debug("[{}] asking replica '{}' when it started failed: {}", label, node.name(), e.getMessage());
            return;
        }
        catch (RuntimeException e) {
            log.debug("[{}] asking replica '{}' when it started failed: {}", label, node.name(), e.getMessage());
            return;
        }
        if (run != null && node.restartedBy(run)) {
            epochs.forget(node.index());
            // MariaDB/MySQL can also say so by a connection id lower than one seen before, which a connection the
            // pool opened earlier but lends later shows too: forgetting then costs one more look, never a stale read
            log.info("[{}] replica '{}' restarted since it was last asked (its start time, or its connection ids, started"
                    + " again): what it told before is forgotten", label, node.name());
        }
    }

    public ServerEpochs epochs() {
        return epochs;
    }

    /** The replica for the next read, or {@code null} when none is UP. Lock-free. */
    public ReplicaNode choose() {
        List<ReplicaNode> candidates = snapshot.candidates;
        return candidates.isEmpty() ? null : (ReplicaNode) balancer.choose(candidates);
    }

    /** What a read needs of a replica beyond being UP: caught up to a position, lag within a bound. */
    @FunctionalInterface
    public interface Requirement {
        boolean admits(ReplicaNode node);
    }

    /**
     * The replica for the next read among the UP replicas that meet {@code requirement}, chosen by the load
     * balancer; {@code null} when none does. The best tier's replicas first; when none of them qualifies, the
     * UP replicas of every tier that do. Allocates the filtered list only when some candidate is left out.
     */
    public ReplicaNode choose(Requirement requirement) {
        List<ReplicaNode> candidates = snapshot.candidates;
        List<ReplicaNode> suitable = filter(candidates, requirement);
        if (suitable.isEmpty()) {
            List<ReplicaNode> up = new ArrayList<>(nodes.size());
            for (ReplicaNode node : nodes) {
                if (isUp(node)) {
                    up.add(node);
                }
            }
            suitable = filter(up, requirement);
        }
        return suitable.isEmpty() ? null : (ReplicaNode) balancer.choose(suitable);
    }

    /**
     * As {@link #choose(Requirement)}, among the UP replicas of {@code tier} only (a rule by query shape's tier); when
     * none of that tier is UP, or {@code tier} is 0, as {@link #choose(Requirement)}.
     */
    public ReplicaNode choose(Requirement requirement, int tier) {
        if (tier == 0) {
            return choose(requirement);
        }
        List<ReplicaNode> ofTier = new ArrayList<>(nodes.size());
        for (ReplicaNode node : nodes) {
            if (node.tier() == tier && isUp(node)) {
                ofTier.add(node);
            }
        }
        if (ofTier.isEmpty()) {
            return choose(requirement);
        }
        List<ReplicaNode> suitable = filter(ofTier, requirement);
        return suitable.isEmpty() ? null : (ReplicaNode) balancer.choose(suitable);
    }

    /**
     * The candidates that {@code requirement} admits, each asked once: a requirement may grant something once (a trial
     * read of a replica that is not known to keep up), and asking again would take it back.
     */
    private static List<ReplicaNode> filter(List<ReplicaNode> candidates, Requirement requirement) {
        int size = candidates.size();
        boolean[] many = size > Long.SIZE ? new boolean[size] : null;
        long admittedBits = 0;
        int admitted = 0;
        for (int i = 0; i < size; i++) {
            if (requirement.admits(candidates.get(i))) {
                admitted++;
                if (many != null) {
                    many[i] = true;
                }
                else {
                    admittedBits |= 1L << i;
                }
            }
        }
        if (admitted == size) {
            return candidates;
        }
        List<ReplicaNode> suitable = new ArrayList<>(admitted);
        for (int i = 0; i < size; i++) {
            if (many != null ? many[i] : (admittedBits & (1L << i)) != 0) {
                suitable.add(candidates.get(i));
            }
        }
        return suitable;
    }

    /** The UP replicas of the best tier, the list the balancer receives. */
    public List<ReplicaNode> candidates() {
        return snapshot.candidates;
    }

    /** Whether the replica is currently in rotation. */
    public boolean isUp(ReplicaNode node) {
        return snapshot.health.replicas().get(node.index()).isUp();
    }

    /** The current health of every replica: an immutable snapshot, cheap to call. */
    public ReplicaHealth health() {
        return snapshot.health;
    }

    /** A connection error while reading from (or connecting to) the replica: out of rotation at once. */
    public synchronized void markDown(ReplicaNode node, Throwable cause) {
        epochs.forget(node.index());
        ReplicaState before = trackers[node.index()].state();
        if (trackers[node.index()].readFailed(clock.nanoTime(), message(cause))) {
            changed(node, before);
        }
    }

    /** A probe reached the replica. */
    public synchronized void probed(ReplicaNode node, LagSample sample, GtidPosition position) {
        HealthTracker tracker = trackers[node.index()];
        ReplicaState before = tracker.state();
        long now = clock.nanoTime();
        if (sample.isBroken()) {
            tracker.probeBroken(now, sample.broken(), position);
        }
        else {
            tracker.probeSucceeded(now, sample.lagMicros(), position);
            node.lagMicros(tracker.lagMicros());
        }
        changed(node, before);
    }

    /** A probe found that the listed replica is the primary now (a failover promoted it): no replica reads. */
    public synchronized void actsAsPrimary(ReplicaNode node, String reason) {
        HealthTracker tracker = trackers[node.index()];
        ReplicaState before = tracker.state();
        tracker.probeFoundPrimary(clock.nanoTime(), reason);
        changed(node, before);
    }

    /**
     * The replica's probe saw whether it takes writes although it replicates; the change is logged (WARN when it
     * does) and shown in health.
     */
    public synchronized void acceptsWrites(ReplicaNode node, boolean acceptsWrites) {
        HealthTracker tracker = trackers[node.index()];
        if (tracker.acceptsWrites() == acceptsWrites) {
            return;
        }
        tracker.acceptsWrites(acceptsWrites);
        snapshot = snapshot(snapshot.candidates);
        if (acceptsWrites) {
            log.warn("[{}] replica '{}' accepts writes (read_only=OFF) although it replicates from the primary:"
                    + " hibernate-rwsplit sends it no write, but set read_only=ON on it (MySQL: super_read_only=ON)"
                    + " so that nothing else can write there", label, node.name());
        }
        else {
            log.info("[{}] replica '{}' is read-only again", label, node.name());
        }
    }

    /**
     * A probe could not reach the replica. Returns whether the replica is DOWN now: it stopped answering the monitor,
     * so the connections lent to it may be stuck too.
     */
    public synchronized boolean probeFailed(ReplicaNode node, Throwable cause) {
        epochs.forget(node.index());
        HealthTracker tracker = trackers[node.index()];
        ReplicaState before = tracker.state();
        tracker.probeFailed(clock.nanoTime(), message(cause));
        changed(node, before);
        return tracker.state() == ReplicaState.DOWN;
    }

    /** Publishes a new snapshot; logs a state change once. Called with the lock held. */
    private void changed(ReplicaNode node, ReplicaState before) {
        HealthTracker tracker = trackers[node.index()];
        ReplicaState after = tracker.state();
        snapshot = snapshot(snapshot.candidates);
        if (before == after) {
            return;
        }
        if (after == ReplicaState.UP) {
            log.info("[{}] replica '{}' back in rotation ({} -> UP)", label, node.name(), before);
        }
        else if (before == ReplicaState.UP) {
            log.warn("[{}] replica '{}' out of rotation (UP -> {}): {}", label, node.name(), after, tracker.lastError());
        }
        else {
            log.info("[{}] replica '{}' still out of rotation ({} -> {}): {}", label, node.name(), before, after,
                    tracker.lastError());
        }
    }

    private Snapshot snapshot(List<ReplicaNode> previousCandidates) {
        List<ReplicaStatus> statuses = new ArrayList<>(nodes.size());
        Map<String, Long> ejections = new LinkedHashMap<>();
        int bestTier = Integer.MAX_VALUE;
        for (ReplicaNode node : nodes) {
            HealthTracker tracker = trackers[node.index()];
            statuses.add(tracker.status());
            ejections.put(node.name(), tracker.ejections());
            if (tracker.state() == ReplicaState.UP) {
                bestTier = Math.min(bestTier, node.tier());
            }
        }
        List<ReplicaNode> candidates = new ArrayList<>();
        for (ReplicaNode node : nodes) {
            if (trackers[node.index()].state() == ReplicaState.UP && node.tier() == bestTier) {
                candidates.add(node);
            }
        }
        return new Snapshot(candidates.equals(previousCandidates) ? previousCandidates : List.copyOf(candidates),
                new ReplicaHealth(statuses, ejections));
    }

    /** The cause as it may be shown in logs and health (credentials masked). */
    private static String message(Throwable cause) {
        return Secrets.describe(cause);
    }

    @Override
    public String toString() {
        return label + Arrays.toString(names.toArray());
    }
}
