package io.rwsplit.internal.balance;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/** Each candidate in turn. Safe after the counter overflows ({@code Math.floorMod}). */
final class RoundRobinBalancer implements LoadBalancer {

    private final AtomicInteger counter;

    RoundRobinBalancer() {
        this(0);
    }

    RoundRobinBalancer(int start) {
        this.counter = new AtomicInteger(start);
    }

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        return candidates.get(Math.floorMod(counter.getAndIncrement(), candidates.size()));
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
