package io.rwsplit.internal.balance;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/** A uniformly random candidate. */
final class RandomBalancer implements LoadBalancer {

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        return candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
