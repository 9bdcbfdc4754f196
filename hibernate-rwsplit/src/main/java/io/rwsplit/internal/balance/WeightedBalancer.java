package io.rwsplit.internal.balance;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/**
 * Smooth weighted round-robin (as in nginx): with weights 3 and 1 the order is A A B A, repeated, so
 * every window of {@code sum(weights)} picks matches the weights exactly. The order is computed once
 * per candidate list (candidates change only when health changes) and then walked with an atomic
 * counter, so picking is lock-free; a replica that leaves and returns simply gets a new schedule with
 * the right weights. Weights are divided by their greatest common divisor; schedules longer than
 * {@value #MAX_SCHEDULE} fall back to cumulative weights (still exact, less smooth).
 */
final class WeightedBalancer implements LoadBalancer {

    static final int MAX_SCHEDULE = 4096;

    private record Schedule(List<? extends ReplicaView> candidates, int[] order, long[] cumulative) {
    }

    private final AtomicInteger counter = new AtomicInteger();
    private volatile Schedule schedule;

    @Override
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        Schedule s = schedule;
        if (s == null || s.candidates != candidates) {
            s = schedule(candidates);
            schedule = s;
        }
        int tick = counter.getAndIncrement();
        if (s.order != null) {
            return candidates.get(s.order[Math.floorMod(tick, s.order.length)]);
        }
        long total = s.cumulative[s.cumulative.length - 1];
        long point = Math.floorMod((long) tick, total);
        for (int i = 0; i < s.cumulative.length; i++) {
            if (point < s.cumulative[i]) {
                return candidates.get(i);
            }
        }
        return candidates.get(candidates.size() - 1);
    }

    static Schedule schedule(List<? extends ReplicaView> candidates) {
        int n = candidates.size();
        long gcd = 0;
        for (ReplicaView c : candidates) {
            gcd = gcd(gcd, c.weight());
        }
        long[] weights = new long[n];
        long[] cumulative = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            weights[i] = candidates.get(i).weight() / gcd;
            total += weights[i];
            cumulative[i] = total;
        }
        if (total > MAX_SCHEDULE) {
            return new Schedule(candidates, null, cumulative);
        }
        int[] order = new int[(int) total];
        long[] current = new long[n];
        for (int step = 0; step < order.length; step++) {
            int best = 0;
            for (int i = 0; i < n; i++) {
                current[i] += weights[i];
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            order[step] = best;
        }
        return new Schedule(candidates, order, cumulative);
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
