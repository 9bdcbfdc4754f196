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

    /**
     * A statement of {@code by} starts holding a count on {@code node}; whether it holds it. None once {@code by} is
     * closed: an abort on another thread may have given back its statements' counts already ({@link #releaseAll}) while
     * this statement waited for its connection, and aborted parts never serve again, so a count taken after it would
     * stay for good. The count is taken first, then {@code by} is looked at (a full fence between, as in
     * {@link #releaseAll} between the close and the counts): either this sees it closed and gives the count back, or
     * the close or abort finds the count and gives it back.
     */
    boolean hold(ReplicaNode node, RoutingConnection by) {
        int index = node.index();
        held.incrementAndGet(index);
        node.inFlightCounter().incrementAndGet();
        java.lang.invoke.VarHandle.fullFence();
        if (!by.isClosed()) {
            return true;
        }
        if (held.getAndUpdate(index, ONE_LESS) > 0) {
            node.inFlightCounter().decrementAndGet();
        }
        return false;
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
        // the connection is marked closed before this (RoutingConnection#close, #abort); a statement that takes a count
        // on another thread looks at it after taking the count ({@link #hold}): the fences make one of them see the other
        java.lang.invoke.VarHandle.fullFence();
        for (int i = 0; i < nodes.size(); i++) {
            ReplicaNode node = nodes.get(i);
            int n = held.getAndSet(node.index(), 0);
            if (n != 0) {
                node.inFlightCounter().addAndGet(-n);
            }
        }
    }
}
