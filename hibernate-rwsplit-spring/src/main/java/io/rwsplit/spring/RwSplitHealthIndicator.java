package io.rwsplit.spring;

import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.persistence.EntityManagerFactory;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaStatus;

/**
 * Health contributor {@code rwsplit}: UP while the primary of every persistence unit answers, DOWN when one does
 * not. Each replica is a detail (state, lag, last error, ejections): a LAGGING or DOWN replica is reported, never
 * turned into DOWN, because reads then go to the other replicas or the primary. {@code lostWriteFailovers} counts
 * failovers of the primary that lost committed writes (reported, not turned into DOWN: the new primary works).
 */
final class RwSplitHealthIndicator extends AbstractHealthIndicator {

    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    private final PersistenceUnits units;

    RwSplitHealthIndicator(PersistenceUnits units) {
        super("hibernate-rwsplit health check failed");
        this.units = units;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        boolean up = true;
        Map<String, EntityManagerFactory> active = units.active();
        for (Map.Entry<String, EntityManagerFactory> unit : active.entrySet()) {
            Map<String, Object> detail = new LinkedHashMap<>();
            String primaryError = primaryError(unit.getValue());
            detail.put("primary", primaryError == null ? "UP" : "DOWN");
            if (primaryError != null) {
                detail.put("primaryError", primaryError);
                up = false;
            }
            ReplicaHealth health = RwSplit.health(unit.getValue());
            detail.put("replicas", replicas(health));
            detail.put("lostWriteFailovers", health.lostWriteFailovers());   // each also logged at ERROR
            if (active.size() == 1) {
                detail.forEach(builder::withDetail);
            }
            else {
                builder.withDetail(unit.getKey(), detail);
            }
        }
        if (up) {
            builder.up();
        }
        else {
            builder.down();
        }
    }

    static Map<String, Object> replicas(ReplicaHealth health) {
        Map<String, Object> replicas = new LinkedHashMap<>();
        for (ReplicaStatus status : health.replicas()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("state", status.state().name());
            r.put("lag", Duration.ofNanos(status.lagMicros() * 1_000).toString());
            r.put("lagMillis", status.lagMicros() / 1_000);
            if (status.acceptsWrites()) {
                r.put("acceptsWrites", true);   // read_only=OFF on a replica: set read_only=ON there
            }
            if (status.lastError() != null) {
                r.put("lastError", status.lastError());
            }
            Long ejections = health.ejections().get(status.name());
            r.put("ejections", ejections == null ? 0L : ejections);
            replicas.put(status.name(), r);
        }
        return replicas;
    }

    /** {@code null} when the unit's primary answers, else why it does not. */
    private static String primaryError(EntityManagerFactory factory) {
        DataSource dataSource = PersistenceUnits.dataSource(factory);
        if (dataSource == null) {
            return null;
        }
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid(VALIDATION_TIMEOUT_SECONDS) ? null : "the connection did not validate";
        }
        catch (Exception e) {
            return e.toString();
        }
    }
}
