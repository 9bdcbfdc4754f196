package io.rwsplit.quarkus;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code quarkus.rwsplit.*} as the tests give it: only replicas, replica datasources, a load balancer and three
 * settings.
 */
final class UnitConfigs {

    private UnitConfigs() {
    }

    static RwSplitRuntimeConfig.PersistenceUnit unit(List<String> urls, List<String> dataSources) {
        return unit(urls, dataSources, null);
    }

    /** @param loadBalancer {@code quarkus.rwsplit.load-balancer}, or null when it is not set */
    static RwSplitRuntimeConfig.PersistenceUnit unit(List<String> urls, List<String> dataSources, String loadBalancer) {
        return new NothingSet() {
            @Override public Optional<List<String>> replicas() { return urls.isEmpty() ? Optional.empty() : Optional.of(urls); }
            @Override public Optional<List<String>> replicaDatasources() { return dataSources.isEmpty() ? Optional.empty() : Optional.of(dataSources); }
            @Override public Optional<String> loadBalancer() { return Optional.ofNullable(loadBalancer); }
            @Override public Optional<RwSplitRuntimeConfig.LostWrites> lostWrites() { return Optional.of(RwSplitRuntimeConfig.LostWrites.LOG); }
            @Override public Optional<Duration> maxLag() { return Optional.of(Duration.ofSeconds(5)); }
            @Override public OptionalInt auditSample() { return OptionalInt.of(1); }
        };
    }

    /** A unit's configuration with no key set; a test overrides the keys it sets. */
    static class NothingSet implements RwSplitRuntimeConfig.PersistenceUnit {
        @Override public Optional<List<String>> replicas() { return Optional.empty(); }
        @Override public Optional<List<String>> replicaDatasources() { return Optional.empty(); }
        @Override public Optional<String> loadBalancer() { return Optional.empty(); }
        @Override public Optional<String> consistency() { return Optional.empty(); }
        @Override public Optional<RwSplitRuntimeConfig.ReadYourWritesMode> readYourWrites() { return Optional.empty(); }
        @Override public Optional<Duration> readYourWritesWindow() { return Optional.empty(); }
        @Override public Optional<RwSplitRuntimeConfig.LostWrites> lostWrites() { return Optional.empty(); }
        @Override public Optional<Duration> maxLag() { return Optional.empty(); }
        @Override public Optional<Duration> probeInterval() { return Optional.empty(); }
        @Override public Optional<Duration> probeTimeout() { return Optional.empty(); }
        @Override public OptionalInt failureThreshold() { return OptionalInt.empty(); }
        @Override public Optional<String> lagProbe() { return Optional.empty(); }
        @Override public OptionalInt queryShapes() { return OptionalInt.empty(); }
        @Override public OptionalInt timeSample() { return OptionalInt.empty(); }
        @Override public OptionalInt auditSample() { return OptionalInt.empty(); }
    }

    /** Alternating unit names and unit configurations. */
    static RwSplitRuntimeConfig config(Object... unitsAndConfigs) {
        Map<String, RwSplitRuntimeConfig.PersistenceUnit> units = new LinkedHashMap<>();
        for (int i = 0; i < unitsAndConfigs.length; i += 2) {
            units.put((String) unitsAndConfigs[i], (RwSplitRuntimeConfig.PersistenceUnit) unitsAndConfigs[i + 1]);
        }
        return () -> units;
    }
}
