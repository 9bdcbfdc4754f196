package io.rwsplit.internal.balance;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/**
 * Power of two choices: two distinct random candidates, the one with fewer statements in progress wins
 * (the first on a tie). Nearly as good as scanning for the global minimum, without herding every
 * thread onto the same replica.
 */
final class LeastInFlightBalancer implements LoadBalancer {

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        int n = candidates.size();
        if (n == 1) {
            return candidates.get(0);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int a = random.nextInt(n);
        int b = random.nextInt(n - 1);
        if (b >= a) {
            b++;
        }
        ReplicaView first = candidates.get(a);
        ReplicaView second = candidates.get(b);
        return second.inFlight() < first.inFlight() ? second : first;
    }
}
