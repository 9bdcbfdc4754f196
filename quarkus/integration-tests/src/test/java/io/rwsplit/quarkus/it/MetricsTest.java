package io.rwsplit.quarkus.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/** The core's meters of the default persistence unit, bound because the application has quarkus-micrometer. */
@QuarkusTest
class MetricsTest {

    private static final String UNIT_TAG = "entityManagerFactory";
    private static final String DEFAULT_UNIT = "<default>";

    @Inject
    People people;

    @Inject
    MeterRegistry registry;

    @Test
    void replicaReadIsCountedByReason() {
        double before = replicaReads().count();
        assertEquals("replica-alice", people.nameOf(1L));
        assertEquals(before + 1, replicaReads().count());
    }

    @Test
    void replicaStateIsOneForItsCurrentState() {
        Gauge up = registry.find("rwsplit.replica.state")
                .tags(UNIT_TAG, DEFAULT_UNIT, "replica", "replica1", "state", "UP").gauge();
        assertNotNull(up, "rwsplit.replica.state of replica1");
        assertEquals(1.0, up.value());
    }

    @Test
    void metersAreScraped() {
        given().when().get("/q/metrics").then()
                .statusCode(200)
                .body(containsString("rwsplit_statements_total{entityManagerFactory=\"<default>\",reason=\"REPLICA_READ\""));
    }

    private FunctionCounter replicaReads() {
        FunctionCounter counter = registry.find("rwsplit.statements")
                .tags(UNIT_TAG, DEFAULT_UNIT, "target", "replica", "reason", "REPLICA_READ").functionCounter();
        assertNotNull(counter, "rwsplit.statements{reason=REPLICA_READ}");
        return counter;
    }
}
