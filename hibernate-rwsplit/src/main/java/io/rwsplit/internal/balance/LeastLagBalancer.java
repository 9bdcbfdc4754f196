package io.rwsplit.internal.balance;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/** The candidate with the smallest last measured lag; ties are taken in turn so equal replicas share the load. */
final class LeastLagBalancer implements LoadBalancer {

    private final AtomicInteger counter = new AtomicInteger();

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        int n = candidates.size();
        int start = Math.floorMod(counter.getAndIncrement(), n);
        ReplicaView best = candidates.get(start);
        for (int i = 1; i < n; i++) {
            ReplicaView c = candidates.get((start + i) % n);
            if (c.lagMicros() < best.lagMicros()) {
                best = c;
            }
        }
        return best;
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
