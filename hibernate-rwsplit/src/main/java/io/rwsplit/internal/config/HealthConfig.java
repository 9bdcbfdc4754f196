package io.rwsplit.internal.config;

import java.time.Duration;
import java.util.Map;

import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.config.SettingsTable;

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

    /** The defaults of {@link SettingsTable}. */
    public static final HealthConfig DEFAULTS = from(new Settings(Map.of()));

    public static HealthConfig from(Settings s) {
        String table = s.string(SettingsTable.HEARTBEAT_TABLE);
        if (!table.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?")) {
            throw Settings.invalid(SettingsTable.HEARTBEAT_TABLE.key(), table,
                    "a table name such as rwsplit_heartbeat or mydb.rwsplit_heartbeat");
        }
        return new HealthConfig(s.choice(SettingsTable.LAG_PROBE), s.duration(SettingsTable.PROBE_INTERVAL),
                s.duration(SettingsTable.PROBE_TIMEOUT), s.duration(SettingsTable.MAX_LAG),
                s.integer(SettingsTable.FAILURE_THRESHOLD), s.duration(SettingsTable.RECOVERY_PERIOD), table,
                s.integer(SettingsTable.PRIMARY_FAILURE_THRESHOLD), s.duration(SettingsTable.PRIMARY_COOL_DOWN));
    }

    /**
     * How long an autocommit read that lost the primary (a failover) waits for the primary to answer again, or
     * for a replica that may serve it: the breaker's cool-down (the time the module gives the primary to come
     * back before it tries it again) plus one probe timeout (one connection attempt).
     */
    public Duration failoverWait() {
        return primaryCoolDown.plus(probeTimeout);
    }

}
