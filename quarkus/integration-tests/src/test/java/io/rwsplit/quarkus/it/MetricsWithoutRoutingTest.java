package io.rwsplit.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** Without {@code quarkus.rwsplit.replicas} the extension does nothing: no meters, though quarkus-micrometer is there. */
@QuarkusTest
@TestProfile(MetricsWithoutRoutingTest.NoReplicas.class)
class MetricsWithoutRoutingTest {

    public static class NoReplicas implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rwsplit.replicas", "");
        }
    }

    @Inject
    People people;

    @Inject
    MeterRegistry registry;

    @Test
    void bindsNoMeterWhenRoutingIsOff() {
        assertEquals("primary-alice", people.nameOf(1L));
        assertTrue(registry.find("rwsplit.statements").meters().isEmpty());
        assertTrue(registry.find("rwsplit.replica.state").meters().isEmpty());
    }
}
