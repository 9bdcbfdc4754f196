package io.rwsplit.quarkus.health;

import java.sql.Connection;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.agroal.api.AgroalDataSource;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaStatus;

/**
 * Readiness check {@code hibernate-rwsplit} of the default persistence unit, registered when
 * {@code quarkus-smallrye-health} is present: UP while the primary (the default datasource) answers, DOWN when it
 * does not. Each replica is one detail ({@code replica1: "UP, lag PT0.004S, ejections 0"}, with its last error when
 * it has one): a LAGGING or DOWN replica is reported, never turned into DOWN, because reads then go to the other
 * replicas or the primary. {@code lostWriteFailovers} counts failovers of the primary that lost committed writes
 * (each also logged at ERROR; reported, not DOWN: the new primary works).
 */
@Readiness
@ApplicationScoped
public class RwSplitReadinessCheck implements HealthCheck {

    static final String NAME = "hibernate-rwsplit";

    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    @Inject
    EntityManagerFactory factory;

    @Inject
    AgroalDataSource primary;

    @Override
    public HealthCheckResponse call() {
        ReplicaHealth health;
        try {
            health = RwSplit.health(factory);
        }
        catch (IllegalStateException notRouted) {
            // quarkus.rwsplit.replicas is not set: the extension does nothing, and has nothing to be unready about
            return HealthCheckResponse.named(NAME).up().withData("replicas", "none").build();
        }
        return response(primaryError(), health);
    }

    /** The response for a primary that answered ({@code primaryError == null}) or failed, and the replicas' health. */
    static HealthCheckResponse response(String primaryError, ReplicaHealth health) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(NAME).status(primaryError == null)
                .withData("primary", primaryError == null ? "UP" : "DOWN: " + primaryError);
        for (ReplicaStatus status : health.replicas()) {
            builder.withData(status.name(), describe(status, health.ejections().get(status.name())));
        }
        return builder.withData("lostWriteFailovers", health.lostWriteFailovers()).build();
    }

    /** {@code "LAGGING, lag PT3.2S, ejections 1, lastError: ..."}. */
    static String describe(ReplicaStatus status, Long ejections) {
        StringBuilder s = new StringBuilder(status.state().name())
                .append(", lag ").append(Duration.ofNanos(status.lagMicros() * 1_000))
                .append(", ejections ").append(ejections == null ? 0 : ejections);
        if (status.acceptsWrites()) {
            s.append(", accepts writes (set read_only=ON on it)");
        }
        if (status.lastError() != null) {
            s.append(", lastError: ").append(status.lastError());
        }
        return s.toString();
    }

    /** {@code null} when the primary answers, else why it does not. */
    private String primaryError() {
        try (Connection connection = primary.getConnection()) {
            return connection.isValid(VALIDATION_TIMEOUT_SECONDS) ? null : "the connection did not validate";
        }
        catch (Exception e) {
            return e.toString();
        }
    }
}
