package io.rwsplit.internal.health;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.config.Settings;
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
    public static String resolve(String name, List<ReplicaConfig> replicas) {
        if (!name.equals("auto")) {
            checkDatabase(name, replicas);
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

    /**
     * Refuses at startup a probe that cannot work on a replica given by URL: {@code replica_status} on PostgreSQL,
     * {@code lsn} and {@code replay_timestamp} on MariaDB or MySQL.
     */
    private static void checkDatabase(String name, List<ReplicaConfig> replicas) {
        for (ReplicaConfig replica : replicas) {
            String url = replica.url();
            if (url == null) {
                continue;
            }
            boolean postgres = url.startsWith("jdbc:postgresql:");
            boolean mysql = url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:");
            if (postgres && name.equals("replica_status")) {
                throw Settings.invalid(RwSplitSettings.LAG_PROBE, name, "a probe PostgreSQL standbys support (auto, lsn,"
                        + " replay_timestamp, heartbeat, gtid, reachability): replica '" + replica.name() + "' is " + url);
            }
            if (mysql && (name.equals("lsn") || name.equals("replay_timestamp"))) {
                throw Settings.invalid(RwSplitSettings.LAG_PROBE, name, "a probe MariaDB and MySQL replicas support (auto,"
                        + " heartbeat, replica_status, gtid, reachability): replica '" + replica.name() + "' is " + url);
            }
        }
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
    public static LagProbe create(String name, HealthConfig config, GtidReader gtid, Clock clock) {
        return create(name, config, gtid, clock, "default");
    }

    /**
     * A new probe for the replicas of {@code label}; {@code heartbeat} falls back to {@code gtid} (or
     * {@code replica_status}) with one WARN when the user may not create or write its table.
     */
    public static LagProbe create(String name, HealthConfig config, GtidReader gtid, Clock clock, String label) {
        if (name.equals("heartbeat")) {
            return new HeartbeatWithFallback(label, config.heartbeatTable(), gtid, clock, config.probeInterval());
        }
        return switch (name) {
            case "heartbeat" -> new HeartbeatProbe(config.heartbeatTable(), clock, config.probeInterval());
            case "replica_status" -> new ReplicaStatusProbe();
            case "gtid", "lsn" -> new GtidProbe(gtid, clock, name, config.probeInterval());
            case "replay_timestamp" -> new ReplayTimestampProbe();
            case "reachability" -> new ReachabilityProbe((int) Math.max(1, config.probeTimeout().toSeconds()));
            default -> throw new IllegalArgumentException("unknown lag probe '" + name + "' (known: " + names() + ")");
        };
    }
}
