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
        return new TreeSet<>(Set.of("heartbeat", "replica_status", "gtid", "lsn", "replay_timestamp", "reachability"));
    }

    /**
     * What {@code auto} means for these replicas: heartbeat on MariaDB/MySQL URLs, lsn on PostgreSQL URLs (no
     * table, no writes, exact positions), else (mixed, unknown or DataSource replicas) reachability.
     */
    static String resolve(String name, List<ReplicaConfig> replicas) {
        if (!name.equals("auto")) {
            return name;
        }
        boolean mysql = true;
        boolean postgres = true;
        for (ReplicaConfig replica : replicas) {
            String url = replica.url();
            mysql &= url != null && (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:"));
            postgres &= url != null && url.startsWith("jdbc:postgresql:");
        }
        return mysql ? "heartbeat" : postgres ? "lsn" : "reachability";
    }

    /** A new probe; a probe that needs work on the primary also implements {@link PrimaryTask}. */
    static LagProbe create(String name, HealthConfig config, GtidReader gtid, Clock clock) {
        return switch (name) {
            case "heartbeat" -> new HeartbeatProbe(config.heartbeatTable(), clock);
            case "replica_status" -> new ReplicaStatusProbe();
            case "gtid", "lsn" -> new GtidProbe(gtid, clock, name);
            case "replay_timestamp" -> new ReplayTimestampProbe();
            case "reachability" -> new ReachabilityProbe((int) Math.max(1, config.probeTimeout().toSeconds()));
            default -> throw new IllegalArgumentException("unknown lag probe '" + name + "' (known: " + names() + ")");
        };
    }
}
