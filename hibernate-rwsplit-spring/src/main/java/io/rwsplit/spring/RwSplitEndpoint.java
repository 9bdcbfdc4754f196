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
 * reason and by replica since startup, the share of replica-eligible reads the replicas served, the reads and the
 * share of them the replicas served, where reads stay on the primary (the read shapes with most primary reads and
 * their reasons), the top query shapes, and the replicas' health.
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
            u.put("reads", stats.reads());
            u.put("replicaReads", stats.replicaReads());
            double readShare = stats.readReplicaShare();
            u.put("readReplicaShare", Double.isNaN(readShare) ? null : readShare);
            u.put("auditedReads", stats.auditedReads());
            u.put("unauditedReads", stats.unauditedReads());
            u.put("staleReadsAgainstUnit", stats.staleReadsAgainstUnit());
            u.put("staleReadsAgainstSession", stats.staleReadsAgainstSession());
            u.put("preventedReads", stats.preventedReads());
            u.put("checkedReplicaReads", stats.checkedReplicaReads());
            u.put("failedReplicaChecks", stats.failedReplicaChecks());
            u.put("replicaPositionQueries", stats.replicaPositionQueries());
            u.put("byReason", stats.byReason());
            u.put("byReplica", stats.byReplica());
            u.put("primaryReadShapes", stats.primaryReadShapes().stream().map(RwSplitEndpoint::shape).toList());
            u.put("queryShapes", stats.queryShapes().stream().map(RwSplitEndpoint::shape).toList());
            u.put("replicas", RwSplitHealthIndicator.replicas(RwSplit.health(unit.getValue())));
            result.put(unit.getKey(), u);
        }
        return Map.of("units", result);
    }

    private static Map<String, Object> shape(io.rwsplit.QueryShapeStatistics q) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", q.id());
        m.put("sql", q.sql());
        if (q.source() != null) {
            m.put("source", q.source());
        }
        m.put("read", q.read());
        m.put("statements", q.statements());
        m.put("replicaStatements", q.replicaStatements());
        Map<String, Long> reasons = new LinkedHashMap<>();
        q.byReason().forEach((reason, n) -> reasons.put(reason.name(), n));
        m.put("byReason", reasons);
        m.put("primaryMeanMillis", q.primaryMeanTime().toNanos() / 1e6);
        m.put("primaryMaxMillis", q.primaryMaxTime().toNanos() / 1e6);
        m.put("replicaMeanMillis", q.replicaMeanTime().toNanos() / 1e6);
        m.put("replicaMaxMillis", q.replicaMaxTime().toNanos() / 1e6);
        m.put("auditedReads", q.auditedReads());
        m.put("staleAgainstUnit", q.staleAgainstUnit());
        m.put("staleAgainstSession", q.staleAgainstSession());
        m.put("preventedReads", q.preventedReads());
        return m;
    }
}
