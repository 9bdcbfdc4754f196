package io.rwsplit.health;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.rwsplit.config.ReplicaConfig;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagProbe;

/** The built-in lag probes, by the names accepted in {@code hibernate.rwsplit.lag_probe}. */
public final class LagProbes {

    private LagProbes() {
    }

    public static Set<String> names() {
        return new TreeSet<>(Set.of("heartbeat", "replica_status", "gtid", "reachability"));
    }

    /** What {@code auto} means for these replicas: heartbeat on MariaDB/MySQL URLs, else reachability. */
    static String resolve(String name, List<ReplicaConfig> replicas) {
        if (!name.equals("auto")) {
            return name;
        }
        for (ReplicaConfig replica : replicas) {
            String url = replica.url();
            if (url == null || !(url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:"))) {
                return "reachability";
            }
        }
        return "heartbeat";
    }

    /** For the startup line: the probe (for {@code heartbeat}, the table it writes and how often) and the lag limit. */
    public static String describe(HealthConfig config, List<ReplicaConfig> replicas) {
        String name = resolve(config.lagProbe(), replicas);
        String probe = name.equals("heartbeat")
                ? "heartbeat (writes table " + config.heartbeatTable() + " on the primary every "
                + config.probeInterval().toMillis() + " ms)"
                : name + " (every " + config.probeInterval().toMillis() + " ms)";
        return "lag probe " + probe + (config.lagProbe().equals("auto") ? " chosen by auto" : "") + ", max_lag "
                + (config.maxLag().isZero() ? "0 (no limit)" : config.maxLag().toMillis() + " ms");
    }

    /** A new probe; a probe that needs work on the primary also implements {@link PrimaryTask}. */
    static LagProbe create(String name, HealthConfig config, GtidReader gtid, Clock clock) {
        return create(name, config, gtid, clock, "default");
    }

    /**
     * A new probe for the replicas of {@code label}; {@code heartbeat} falls back to {@code gtid} (or
     * {@code replica_status}) with one WARN when the user may not create or write its table.
     */
    static LagProbe create(String name, HealthConfig config, GtidReader gtid, Clock clock, String label) {
        if (name.equals("heartbeat")) {
            return new HeartbeatWithFallback(label, config.heartbeatTable(), gtid, clock);
        }
        return switch (name) {
            case "heartbeat" -> new HeartbeatProbe(config.heartbeatTable(), clock);
            case "replica_status" -> new ReplicaStatusProbe();
            case "gtid" -> new GtidProbe(gtid, clock);
            case "reachability" -> new ReachabilityProbe((int) Math.max(1, config.probeTimeout().toSeconds()));
            default -> throw new IllegalArgumentException("unknown lag probe '" + name + "' (known: " + names() + ")");
        };
    }
}
