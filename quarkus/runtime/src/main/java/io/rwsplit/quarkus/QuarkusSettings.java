package io.rwsplit.quarkus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.hibernate.cfg.PersistenceSettings;

import io.quarkus.runtime.configuration.ConfigurationException;

import io.rwsplit.InvalidSettingException;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Settings;

/**
 * {@code quarkus.rwsplit.*} of one persistence unit as the core's {@code hibernate.rwsplit.*} settings. Only values
 * that are set are handed over, so the core's defaults stay the only defaults, and each value is validated by the
 * core's rules (a bad one fails startup naming the {@code quarkus.rwsplit} key it came from and the value).
 */
final class QuarkusSettings {

    private QuarkusSettings() {
    }

    /**
     * @param unit     the persistence unit's name: the core's name of the unit (in its shared consistency store, its
     *                 log), so that two units never share state
     * @param replicas each replica by name, its pool (an Agroal pool this extension made for a URL, or a named
     *                 datasource's), in the order of the configuration
     * @param dbKind   the unit datasource's {@code db-kind} ({@code mariadb}, {@code postgresql}, ...), or null
     * @return the core settings, empty without replicas (routing stays off)
     * @throws ConfigurationException naming the {@code quarkus.rwsplit} key and the value the core refuses
     */
    static Map<String, Object> of(RwSplitRuntimeConfig.PersistenceUnit config, String unit,
                                  Map<String, ? extends DataSource> replicas, String dbKind) {
        if (replicas.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> s = new LinkedHashMap<>();
        // the core creates no pool for a replica given as a DataSource: Agroal serves every replica
        replicas.forEach((name, pool) -> s.put(RwSplitSettings.REPLICA_PREFIX + name + ".datasource", pool));
        s.put(RwSplitSettings.REPLICAS, String.join(" ", replicas.keySet()));
        s.put(PersistenceSettings.PERSISTENCE_UNIT_NAME, unit);
        config.loadBalancer().ifPresent(v -> s.put(RwSplitSettings.LOAD_BALANCER, v));
        config.consistency().ifPresent(v -> s.put(RwSplitSettings.CONSISTENCY, v));
        config.readYourWrites().ifPresent(v -> s.put(RwSplitSettings.READ_YOUR_WRITES, name(v)));
        config.readYourWritesWindow().ifPresent(v -> s.put(RwSplitSettings.READ_YOUR_WRITES_WINDOW, v));
        config.lostWrites().ifPresent(v -> s.put(RwSplitSettings.LOST_WRITES, name(v)));
        config.maxLag().ifPresent(v -> s.put(RwSplitSettings.MAX_LAG, v));
        config.probeInterval().ifPresent(v -> s.put(RwSplitSettings.PROBE_INTERVAL, v));
        config.probeTimeout().ifPresent(v -> s.put(RwSplitSettings.PROBE_TIMEOUT, v));
        config.failureThreshold().ifPresent(v -> s.put(RwSplitSettings.FAILURE_THRESHOLD, v));
        config.queryShapes().ifPresent(v -> s.put(RwSplitSettings.QUERY_SHAPES, v));
        config.timeSample().ifPresent(v -> s.put(RwSplitSettings.TIME_SAMPLE, v));
        config.auditSample().ifPresent(v -> s.put(RwSplitSettings.AUDIT_SAMPLE, v));
        // the core's auto chooses by URL, and replicas given as DataSources have none: choose by db-kind
        String probe = config.lagProbe().orElse(lagProbe(dbKind));
        if (probe != null) {
            s.put(RwSplitSettings.LAG_PROBE, probe);
        }
        check(s, unit);
        return s;
    }

    /**
     * The core's check of the values (the rows it checks them by at the unit's start), its first refusal reported under
     * the {@code quarkus.rwsplit} key of the value: {@code hibernate.rwsplit.load_balancer} is
     * {@code quarkus.rwsplit.load-balancer}, or {@code quarkus.rwsplit."orders".load-balancer} for the unit
     * {@code orders}.
     */
    private static void check(Map<String, Object> settings, String unit) {
        List<InvalidSettingException> problems = Settings.problems(settings);
        if (!problems.isEmpty()) {
            InvalidSettingException e = problems.get(0);
            String key = UnitPlan.key(unit, e.key().substring(RwSplitSettings.PREFIX.length()).replace('_', '-'));
            // as the extension's other refusals: Quarkus lists the key in its start-up report
            throw new ConfigurationException(Settings.invalid(key, e.value(), e.expected()).getMessage(), Set.of(key));
        }
    }

    /** The lag probe the core's {@code auto} would choose for replicas of this {@code db-kind}; null: its own choice. */
    static String lagProbe(String dbKind) {
        if (dbKind == null) {
            return null;
        }
        return switch (dbKind.toLowerCase(Locale.ROOT)) {
            case "mariadb", "mysql" -> "heartbeat";
            case "postgresql", "postgres", "pgsql" -> "lsn";
            default -> null;
        };
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
