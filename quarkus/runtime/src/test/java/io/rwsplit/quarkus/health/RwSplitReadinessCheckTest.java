package io.rwsplit.quarkus.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;

/** Lagging and down replicas are reported, never DOWN; only the primary makes the check DOWN. */
class RwSplitReadinessCheckTest {

    private static final ReplicaHealth MIXED = new ReplicaHealth(List.of(
            new ReplicaStatus("replica1", ReplicaState.UP, 4_000, null, null, 1, false),
            new ReplicaStatus("replica2", ReplicaState.LAGGING, 3_200_000, "lag PT3.2S above max_lag PT1S", null, 1, false),
            new ReplicaStatus("replica3", ReplicaState.DOWN, 0, "Connection refused", null, 1, true)),
            Map.of("replica2", 1L, "replica3", 2L), 1);

    @Test
    void laggingAndDownReplicasAreReportedWhileTheCheckStaysUp() {
        HealthCheckResponse response = RwSplitReadinessCheck.response(null, MIXED);
        assertEquals("hibernate-rwsplit", response.getName());
        assertEquals(HealthCheckResponse.Status.UP, response.getStatus());
        assertEquals(Map.of(
                "primary", "UP",
                "replica1", "UP, lag PT0.004S, ejections 0",
                "replica2", "LAGGING, lag PT3.2S, ejections 1, lastError: lag PT3.2S above max_lag PT1S",
                "replica3", "DOWN, lag PT0S, ejections 2, accepts writes (set read_only=ON on it), lastError: Connection refused",
                "lostWriteFailovers", 1L), response.getData().orElseThrow());
    }

    @Test
    void aPrimaryThatDoesNotAnswerTurnsTheCheckDown() {
        HealthCheckResponse response = RwSplitReadinessCheck.response("java.sql.SQLException: refused",
                new ReplicaHealth(List.of(), Map.of()));
        assertEquals(HealthCheckResponse.Status.DOWN, response.getStatus());
        assertEquals("DOWN: java.sql.SQLException: refused", response.getData().orElseThrow().get("primary"));
    }
}
