package io.rwsplit.quarkus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.rwsplit.RwSplitSettings;

/**
 * {@code quarkus.rwsplit.*} as the core's {@code hibernate.rwsplit.*} settings. Only values that are set are handed
 * over, so the core's defaults stay the only defaults, and the core validates each value as it validates every
 * other (a bad one fails startup naming the {@code hibernate.rwsplit} key and the value).
 */
final class QuarkusSettings {

    private QuarkusSettings() {
    }

    /**
     * @param primaryUser     the user of the unit's datasource, every replica's user
     * @param primaryPassword its password
     * @return the core settings, empty when {@code quarkus.rwsplit.replicas} is not set (routing stays off)
     */
    static Map<String, Object> of(RwSplitRuntimeConfig config, Optional<String> primaryUser,
                                  Optional<String> primaryPassword) {
        List<String> replicas = config.replicas().orElse(List.of());
        if (replicas.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> s = new LinkedHashMap<>();
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < replicas.size(); i++) {
            String name = "replica" + (i + 1);
            names.append(i == 0 ? "" : " ").append(name);
            // names in the list, each URL under its own key: a URL may hold spaces (H2's INIT=RUNSCRIPT FROM '...')
            String prefix = RwSplitSettings.REPLICA_PREFIX + name + ".";
            s.put(prefix + "url", replicas.get(i).trim());
            // Quarkus builds the primary from quarkus.datasource.*, which Hibernate never sees: replicas default to it
            primaryUser.ifPresent(user -> s.put(prefix + "user", user));
            primaryPassword.ifPresent(password -> s.put(prefix + "password", password));
        }
        s.put(RwSplitSettings.REPLICAS, names.toString());
        config.consistency().ifPresent(v -> s.put(RwSplitSettings.CONSISTENCY, v));
        config.readYourWrites().ifPresent(v -> s.put(RwSplitSettings.READ_YOUR_WRITES, name(v)));
        config.readYourWritesWindow().ifPresent(v -> s.put(RwSplitSettings.READ_YOUR_WRITES_WINDOW, v));
        config.lostWrites().ifPresent(v -> s.put(RwSplitSettings.LOST_WRITES, name(v)));
        config.maxLag().ifPresent(v -> s.put(RwSplitSettings.MAX_LAG, v));
        config.probeInterval().ifPresent(v -> s.put(RwSplitSettings.PROBE_INTERVAL, v));
        config.probeTimeout().ifPresent(v -> s.put(RwSplitSettings.PROBE_TIMEOUT, v));
        config.failureThreshold().ifPresent(v -> s.put(RwSplitSettings.FAILURE_THRESHOLD, v));
        return s;
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
