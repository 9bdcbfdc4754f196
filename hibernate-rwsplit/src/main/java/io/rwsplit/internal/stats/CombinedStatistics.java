package io.rwsplit.internal.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;

/** The sum of several statistics (the tenants of a multi-tenant factory), computed when read. */
public final class CombinedStatistics implements RoutingStatistics {

    private final List<? extends RoutingStatistics> parts;

    public CombinedStatistics(List<? extends RoutingStatistics> parts) {
        this.parts = List.copyOf(parts);
    }

    @Override
    public long lostWriteFailovers() {
        return parts.stream().mapToLong(RoutingStatistics::lostWriteFailovers).sum();
    }

    @Override
    public long lostWriteReads() {
        return parts.stream().mapToLong(RoutingStatistics::lostWriteReads).sum();
    }

    @Override
    public long checkedReplicaReads() {
        return parts.stream().mapToLong(RoutingStatistics::checkedReplicaReads).sum();
    }

    @Override
    public long failedReplicaChecks() {
        return parts.stream().mapToLong(RoutingStatistics::failedReplicaChecks).sum();
    }

    @Override
    public long replicaPositionQueries() {
        return parts.stream().mapToLong(RoutingStatistics::replicaPositionQueries).sum();
    }

    @Override
    public long auditedReads() {
        return parts.stream().mapToLong(RoutingStatistics::auditedReads).sum();
    }

    @Override
    public long unauditedReads() {
        return parts.stream().mapToLong(RoutingStatistics::unauditedReads).sum();
    }

    @Override
    public long staleReadsAgainstUnit() {
        return parts.stream().mapToLong(RoutingStatistics::staleReadsAgainstUnit).sum();
    }

    @Override
    public long staleReadsAgainstSession() {
        return parts.stream().mapToLong(RoutingStatistics::staleReadsAgainstSession).sum();
    }

    @Override
    public long reads() {
        return parts.stream().mapToLong(RoutingStatistics::reads).sum();
    }

    @Override
    public long replicaReads() {
        return parts.stream().mapToLong(RoutingStatistics::replicaReads).sum();
    }

    /** The shapes of every part, those of one id (the same SQL in several tenants) added together. */
    @Override
    public List<QueryShapeStatistics> queryShapes() {
        return QueryShapes.combine(parts.stream().map(RoutingStatistics::queryShapes).toList(),
                java.util.Comparator.comparingLong(QueryShapeStatistics::statements));
    }

    @Override
    public List<QueryShapeStatistics> primaryReadShapes() {
        return QueryShapes.combine(parts.stream().map(RoutingStatistics::primaryReadShapes).toList(),
                java.util.Comparator.comparingLong(QueryShapeStatistics::primaryStatements));
    }

    @Override
    public long primaryStatements() {
        return parts.stream().mapToLong(RoutingStatistics::primaryStatements).sum();
    }

    @Override
    public long replicaStatements() {
        return parts.stream().mapToLong(RoutingStatistics::replicaStatements).sum();
    }

    @Override
    public long count(RouteReason reason) {
        long sum = 0;
        for (RoutingStatistics part : parts) {
            sum += part.count(reason);
        }
        return sum;
    }

    @Override
    public Map<String, Long> byReason() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (RoutingStatistics part : parts) {
            part.byReason().forEach((k, v) -> map.merge(k, v, Long::sum));
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public Map<String, Long> byReplica() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (RoutingStatistics part : parts) {
            part.byReplica().forEach((k, v) -> map.merge(k, v, Long::sum));
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public RouteDecision lastDecision() {
        return null;
    }
}
