package io.rwsplit.route;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LoadBalancer;

/**
 * The replicas of one primary and their health. Routing threads read an immutable {@link Health}
 * snapshot from a volatile field; the rare writers (a replica failing, a retry falling due) replace it
 * wholesale under a lock that the hot path never takes.
 */
public final class ReplicaSet {

    private static final Logger log = LoggerFactory.getLogger(ReplicaSet.class);

    private final String label;
    private final List<ReplicaNode> nodes;
    private final List<String> names;
    private final LoadBalancer balancer;
    private final Clock clock;
    private final long retryNanos;
    private volatile Health health;

    /**
     * Immutable health snapshot.
     *
     * @param candidates     healthy replicas of the best tier, in configuration order
     * @param downUntil      per replica: nano time until which it is left out, or 0 when up
     * @param nextRetryNanos the earliest {@code downUntil}, or {@code Long.MAX_VALUE} when all are up
     */
    record Health(List<ReplicaNode> candidates, long[] downUntil, long nextRetryNanos) {
    }

    public ReplicaSet(String label, List<ReplicaNode> nodes, LoadBalancer balancer, Clock clock, long retryNanos) {
        this.label = label;
        this.nodes = List.copyOf(nodes);
        List<String> n = new ArrayList<>();
        for (ReplicaNode node : nodes) {
            n.add(node.name());
        }
        this.names = List.copyOf(n);
        this.balancer = balancer;
        this.clock = clock;
        this.retryNanos = retryNanos;
        this.health = snapshot(new long[nodes.size()]);
    }

    public List<ReplicaNode> nodes() {
        return nodes;
    }

    public List<String> names() {
        return names;
    }

    /** The replica for the next read, or {@code null} when none is healthy. Lock-free. */
    public ReplicaNode choose() {
        Health h = health;
        if (h.nextRetryNanos != Long.MAX_VALUE && clock.nanoTime() - h.nextRetryNanos >= 0) {
            h = retryDue();
        }
        List<ReplicaNode> candidates = h.candidates;
        return candidates.isEmpty() ? null : (ReplicaNode) balancer.choose(candidates);
    }

    /** Whether the replica is currently in rotation. */
    public boolean isUp(ReplicaNode node) {
        return health.downUntil[node.index()] == 0;
    }

    /** Takes a replica out of rotation for the retry interval; logs once per transition. */
    public synchronized void markDown(ReplicaNode node, Throwable cause) {
        long[] downUntil = health.downUntil.clone();
        boolean wasUp = downUntil[node.index()] == 0;
        long until = clock.nanoTime() + retryNanos;
        downUntil[node.index()] = until == 0 ? 1 : until;
        health = snapshot(downUntil);
        if (wasUp) {
            log.warn("[{}] replica '{}' taken out of rotation for {} ms: {}", label, node.name(),
                    retryNanos / 1_000_000, cause == null ? "unknown" : cause.getMessage());
        }
    }

    /** Puts a replica back into rotation; logs once per transition. */
    public synchronized void markUp(ReplicaNode node) {
        long[] downUntil = health.downUntil.clone();
        if (downUntil[node.index()] != 0) {
            downUntil[node.index()] = 0;
            health = snapshot(downUntil);
            log.info("[{}] replica '{}' back in rotation", label, node.name());
        }
    }

    private synchronized Health retryDue() {
        long now = clock.nanoTime();
        long[] downUntil = health.downUntil.clone();
        boolean changed = false;
        for (int i = 0; i < downUntil.length; i++) {
            if (downUntil[i] != 0 && now - downUntil[i] >= 0) {
                downUntil[i] = 0;
                changed = true;
                log.info("[{}] replica '{}' is tried again", label, nodes.get(i).name());
            }
        }
        if (changed) {
            health = snapshot(downUntil);
        }
        return health;
    }

    private Health snapshot(long[] downUntil) {
        int bestTier = Integer.MAX_VALUE;
        long next = Long.MAX_VALUE;
        for (ReplicaNode node : nodes) {
            long until = downUntil[node.index()];
            if (until == 0) {
                bestTier = Math.min(bestTier, node.tier());
            }
            else if (next == Long.MAX_VALUE || until - next < 0) {
                next = until;
            }
        }
        List<ReplicaNode> candidates = new ArrayList<>();
        for (ReplicaNode node : nodes) {
            if (downUntil[node.index()] == 0 && node.tier() == bestTier) {
                candidates.add(node);
            }
        }
        return new Health(List.copyOf(candidates), downUntil, next);
    }

    @Override
    public String toString() {
        return label + Arrays.toString(names.toArray());
    }
}
