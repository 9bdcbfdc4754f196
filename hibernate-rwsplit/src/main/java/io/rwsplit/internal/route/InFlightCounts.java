package io.rwsplit.internal.route;

import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntUnaryOperator;

import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;

/**
 * The replicas' in-flight counts ({@link ReplicaNode#inFlightCounter()}, read by {@code least_in_flight}) that the
 * statements of one logical connection hold: a statement holds one on its replica from its first execution there to
 * its close, its move, or its driver statement's close with its results ({@code closeOnCompletion}). The connection
 * keeps how many its statements hold on each replica, so that its close or abort gives back the counts of the
 * statements left open; a statement closed after its connection gives back nothing more. Used only when the balancer
 * reads the counts ({@link ReplicaSet#countsInFlight()}).
 * <p>
 * Counted by the connection's thread, given back also by a statement closed on another thread or by an abort: each
 * count held is taken back once, atomically, by whichever comes first. No lock, nothing allocated.
 */
final class InFlightCounts {

    /** One count fewer, none below zero. */
    private static final IntUnaryOperator ONE_LESS = n -> n > 0 ? n - 1 : 0;

    private final List<ReplicaNode> nodes;
    /** Per replica (by its index): how many counts the connection's statements hold there; null when none are kept. */
    private final AtomicIntegerArray held;

    InFlightCounts(ReplicaSet replicas) {
        this.nodes = replicas.nodes();
        this.held = replicas.countsInFlight() ? new AtomicIntegerArray(nodes.size()) : null;
    }

    /** A statement of the connection starts holding a count on {@code node}. */
    void hold(ReplicaNode node) {
        held.incrementAndGet(node.index());
        node.inFlightCounter().incrementAndGet();
    }

    /**
     * A statement of {@code by} gives back its count on {@code node}, unless {@code by} is closed: its close (or abort)
     * gave back the counts of its statements left open, and the parts may serve another session's by now.
     */
    void release(ReplicaNode node, RoutingConnection by) {
        if (!by.isClosed() && held.getAndUpdate(node.index(), ONE_LESS) > 0) {
            node.inFlightCounter().decrementAndGet();
        }
    }

    /** The connection closes or is aborted: the counts its statements left open still hold are given back. */
    void releaseAll() {
        if (held == null) {
            return;
        }
        for (int i = 0; i < nodes.size(); i++) {
            ReplicaNode node = nodes.get(i);
            int n = held.getAndSet(node.index(), 0);
            if (n != 0) {
                node.inFlightCounter().addAndGet(-n);
            }
        }
    }
}
