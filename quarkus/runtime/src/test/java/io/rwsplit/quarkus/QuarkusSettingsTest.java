package io.rwsplit.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

/** {@code quarkus.rwsplit.*} as the core's keys: only what is set, each URL under its own key. */
class QuarkusSettingsTest {

    @Test
    void withoutReplicasNothingIsHandedOver() {
        assertEquals(Map.of(), QuarkusSettings.of(config(List.of()), Optional.of("sa"), Optional.empty()));
    }

    @Test
    void replicasAreNamedByPositionWithTheirUrlsAndThePrimarysCredentials() {
        String spaced = "jdbc:h2:mem:r;INIT=RUNSCRIPT FROM 'classpath:r.sql'";
        Map<String, Object> s = QuarkusSettings.of(config(List.of(spaced, " jdbc:h2:mem:r2 ")), Optional.of("app"),
                Optional.of("secret"));
        assertEquals(Map.of(
                "hibernate.rwsplit.replicas", "replica1 replica2",
                "hibernate.rwsplit.replica.replica1.url", spaced,
                "hibernate.rwsplit.replica.replica1.user", "app",
                "hibernate.rwsplit.replica.replica1.password", "secret",
                "hibernate.rwsplit.replica.replica2.url", "jdbc:h2:mem:r2",
                "hibernate.rwsplit.replica.replica2.user", "app",
                "hibernate.rwsplit.replica.replica2.password", "secret",
                "hibernate.rwsplit.max_lag", Duration.ofSeconds(5),
                "hibernate.rwsplit.lost_writes", "log"), s);
    }

    private static RwSplitRuntimeConfig config(List<String> replicas) {
        return new RwSplitRuntimeConfig() {
            @Override public Optional<List<String>> replicas() { return Optional.of(replicas); }
            @Override public Optional<String> consistency() { return Optional.empty(); }
            @Override public Optional<ReadYourWritesMode> readYourWrites() { return Optional.empty(); }
            @Override public Optional<Duration> readYourWritesWindow() { return Optional.empty(); }
            @Override public Optional<LostWrites> lostWrites() { return Optional.of(LostWrites.LOG); }
            @Override public Optional<Duration> maxLag() { return Optional.of(Duration.ofSeconds(5)); }
            @Override public Optional<Duration> probeInterval() { return Optional.empty(); }
            @Override public Optional<Duration> probeTimeout() { return Optional.empty(); }
            @Override public OptionalInt failureThreshold() { return OptionalInt.empty(); }
        };
    }
}
