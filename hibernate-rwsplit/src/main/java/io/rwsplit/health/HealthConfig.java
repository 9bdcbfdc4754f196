package io.rwsplit.health;

import static io.rwsplit.RwSplitSettings.FAILURE_THRESHOLD;
import static io.rwsplit.RwSplitSettings.HEARTBEAT_TABLE;
import static io.rwsplit.RwSplitSettings.LAG_PROBE;
import static io.rwsplit.RwSplitSettings.MAX_LAG;
import static io.rwsplit.RwSplitSettings.PRIMARY_COOL_DOWN;
import static io.rwsplit.RwSplitSettings.PRIMARY_FAILURE_THRESHOLD;
import static io.rwsplit.RwSplitSettings.PROBE_INTERVAL;
import static io.rwsplit.RwSplitSettings.PROBE_TIMEOUT;
import static io.rwsplit.RwSplitSettings.RECOVERY_PERIOD;

import java.time.Duration;
import java.util.Locale;

import io.rwsplit.config.Settings;

/**
 * Validated settings of replica health and primary protection (see the keys in
 * {@link io.rwsplit.RwSplitSettings}).
 *
 * @param lagProbe                the probe name: {@code auto}, or one of {@link LagProbes#names()}
 * @param probeInterval           pause between two probes of a replica, positive
 * @param probeTimeout            connect and network timeout of a probe, positive
 * @param maxLag                  lag above which a replica is out of rotation; zero means no limit
 * @param failureThreshold        consecutive probe failures that take a replica down
 * @param recoveryPeriod          how long a replica must stay healthy to come back
 * @param heartbeatTable          table of the {@code heartbeat} probe
 * @param primaryFailureThreshold consecutive primary connection failures that open the breaker; 0 disables it
 * @param primaryCoolDown         how long the open breaker fails fast before it lets one trial through
 */
public record HealthConfig(String lagProbe, Duration probeInterval, Duration probeTimeout, Duration maxLag,
                           int failureThreshold, Duration recoveryPeriod, String heartbeatTable,
                           int primaryFailureThreshold, Duration primaryCoolDown) {

    public static final HealthConfig DEFAULTS = new HealthConfig("auto", Duration.ofMillis(250), Duration.ofSeconds(1),
            Duration.ofSeconds(1), 2, Duration.ofSeconds(1), "rwsplit_heartbeat", 5, Duration.ofSeconds(5));

    public static HealthConfig from(Settings s) {
        HealthConfig d = DEFAULTS;
        String probe = s.string(LAG_PROBE, d.lagProbe).toLowerCase(Locale.ROOT);
        if (!probe.equals("auto") && !LagProbes.names().contains(probe)) {
            throw Settings.invalid(LAG_PROBE, probe, "auto or one of " + LagProbes.names());
        }
        String table = s.string(HEARTBEAT_TABLE, d.heartbeatTable);
        if (!table.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?")) {
            throw Settings.invalid(HEARTBEAT_TABLE, table, "a table name such as rwsplit_heartbeat or mydb.rwsplit_heartbeat");
        }
        return new HealthConfig(probe, positive(s, PROBE_INTERVAL, d.probeInterval), positive(s, PROBE_TIMEOUT, d.probeTimeout),
                s.duration(MAX_LAG, d.maxLag), s.integer(FAILURE_THRESHOLD, d.failureThreshold, 1),
                s.duration(RECOVERY_PERIOD, d.recoveryPeriod), table,
                s.integer(PRIMARY_FAILURE_THRESHOLD, d.primaryFailureThreshold, 0),
                positive(s, PRIMARY_COOL_DOWN, d.primaryCoolDown));
    }

    private static Duration positive(Settings s, String key, Duration defaultValue) {
        Duration value = s.duration(key, defaultValue);
        if (value.isZero()) {
            throw Settings.invalid(key, s.raw(key), "a positive duration");
        }
        return value;
    }

    /**
     * How long an autocommit read that lost the primary (a failover) waits for the primary to answer again, or
     * for a replica that may serve it: the breaker's cool-down (the time the module gives the primary to come
     * back before it tries it again) plus one probe timeout (one connection attempt).
     */
    public Duration failoverWait() {
        return primaryCoolDown.plus(probeTimeout);
    }

    /** The thresholds of the replica state machine. */
    public HealthPolicy policy() {
        return new HealthPolicy(failureThreshold, maxLag.toNanos() / 1000, recoveryPeriod.toNanos());
    }
}
