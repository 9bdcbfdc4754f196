package io.rwsplit.internal.balance;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/** The built-in balancers, by the names accepted in {@code hibernate.rwsplit.load_balancer}. */
public final class LoadBalancers {

    private LoadBalancers() {
    }

    /** Names of the built-in balancers. */
    public static Set<String> names() {
        return new TreeSet<>(Set.of("round_robin", "weighted", "least_lag", "least_in_flight", "random", "thread_affinity"));
    }

    /** A new balancer for a replica set that it knows only by the candidates it is given (tests). */
    public static LoadBalancer create(String name) {
        return create(name, List.of());
    }

    /**
     * A new balancer for the replica set of {@code replicas} (every replica, in configuration order); {@code name} must
     * be one of {@link #names()}.
     */
    public static LoadBalancer create(String name, List<? extends ReplicaView> replicas) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "round_robin" -> new RoundRobinBalancer();
            case "weighted" -> new WeightedBalancer();
            case "least_lag" -> new LeastLagBalancer();
            case "least_in_flight" -> new LeastInFlightBalancer();
            case "random" -> new RandomBalancer();
            case "thread_affinity" -> new ThreadAffinityBalancer(replicas);
            default -> throw new IllegalArgumentException("unknown load balancer '" + name + "' (known: " + names() + ")");
        };
    }
}
