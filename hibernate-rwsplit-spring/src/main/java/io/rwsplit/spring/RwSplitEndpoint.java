package io.rwsplit.spring;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.persistence.EntityManagerFactory;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;

/**
 * Actuator endpoint {@code rwsplit} (read-only): per persistence unit, the routed statements by target, by
 * reason and by replica since startup, the share of replica-eligible reads the replicas served, and the
 * replicas' health.
 */
@Endpoint(id = "rwsplit")
public final class RwSplitEndpoint {

    private final PersistenceUnits units;

    RwSplitEndpoint(PersistenceUnits units) {
        this.units = units;
    }

    @ReadOperation
    public Map<String, Object> units() {
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, EntityManagerFactory> unit : units.active().entrySet()) {
            RoutingStatistics stats = RwSplit.statistics(unit.getValue());
            Map<String, Object> u = new LinkedHashMap<>();
            u.put("primaryStatements", stats.primaryStatements());
            u.put("replicaStatements", stats.replicaStatements());
            double share = stats.replicaReadShare();
            u.put("replicaReadShare", Double.isNaN(share) ? null : share);
            u.put("byReason", stats.byReason());
            u.put("byReplica", stats.byReplica());
            u.put("replicas", RwSplitHealthIndicator.replicas(RwSplit.health(unit.getValue())));
            result.put(unit.getKey(), u);
        }
        return Map.of("units", result);
    }
}
