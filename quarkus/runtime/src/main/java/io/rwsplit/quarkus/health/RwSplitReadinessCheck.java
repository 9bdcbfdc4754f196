package io.rwsplit.quarkus.health;

import java.sql.Connection;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.agroal.api.AgroalDataSource;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaStatus;
import io.rwsplit.quarkus.RoutedUnits;

/**
 * Readiness check {@code hibernate-rwsplit} of every routed persistence unit, registered when
 * {@code quarkus-smallrye-health} is present: UP while the primary (the unit's datasource) of every routed unit
 * answers, DOWN when one does not. Each replica is one detail ({@code replica1: "UP, lag PT0.004S, ejections 0"}, with
 * its last error when it has one): a LAGGING or DOWN replica is reported, never turned into DOWN, because reads then
 * go to the other replicas or the primary. {@code lostWriteFailovers} counts failovers of the primary that lost
 * committed writes (each also logged at ERROR; reported, not DOWN: the new primary works). The default unit's
 * details carry no prefix; those of a named unit are prefixed by its name ({@code orders.primary},
 * {@code orders.replica1}, {@code orders.lostWriteFailovers}).
 */
@Readiness
@ApplicationScoped
public class RwSplitReadinessCheck implements HealthCheck {

    static final String NAME = "hibernate-rwsplit";

    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    @Inject
    RoutedUnits routed;

    @Override
    public HealthCheckResponse call() {
        if (routed.units().isEmpty()) {
            // no unit has replicas: the extension does nothing, and has nothing to be unready about
            return HealthCheckResponse.named(NAME).up().withData("replicas", "none").build();
        }
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(NAME).up();
        for (RoutedUnits.Unit unit : routed.units()) {
            String primaryError = primaryError(unit.primary());
            if (primaryError != null) {
                builder.down();
            }
            addUnit(builder, unit.isDefault() ? "" : unit.name() + ".", primaryError, RwSplit.health(unit.factory()));
        }
        return builder.build();
    }

    /** The response for one unit whose primary answered ({@code primaryError == null}) or failed, and its replicas' health. */
    static HealthCheckResponse response(String primaryError, ReplicaHealth health) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(NAME).status(primaryError == null);
        addUnit(builder, "", primaryError, health);
        return builder.build();
    }

    /** Adds one unit's details, each key prefixed by {@code prefix}. */
    static void addUnit(HealthCheckResponseBuilder builder, String prefix, String primaryError, ReplicaHealth health) {
        builder.withData(prefix + "primary", primaryError == null ? "UP" : "DOWN: " + primaryError);
        for (ReplicaStatus status : health.replicas()) {
            builder.withData(prefix + status.name(), describe(status, health.ejections().get(status.name())));
        }
        builder.withData(prefix + "lostWriteFailovers", health.lostWriteFailovers());
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
    private static String primaryError(AgroalDataSource primary) {
        try (Connection connection = primary.getConnection()) {
            return connection.isValid(VALIDATION_TIMEOUT_SECONDS) ? null : "the connection did not validate";
        }
        catch (Exception e) {
            return e.toString();
        }
    }
}
