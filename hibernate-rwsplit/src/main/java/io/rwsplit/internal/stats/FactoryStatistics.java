package io.rwsplit.internal.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;

/** Statistics of a whole factory: updated by many threads without locks ({@link LongAdder}). */
public final class FactoryStatistics implements RoutingStatistics, StatisticsRecorder {

    private static final RouteReason[] REASONS = RouteReason.values();

    private final List<String> replicaNames;
    /** Statements by replica; by reason and on the primary, they are summed from the query shapes' counts. */
    private final LongAdder[] byReplica;

    private final ConsistencyCounts consistency;
    private final QueryShapes shapes;
    private final AuditCounts audit;

    /**
     * @param consistency what the consistency layer counts (writes lost in failovers, checks and questions of replicas)
     * @param shapes     the query shapes of the factory's statements (routing counts them)
     * @param audit      what the stale-read audit counted
     */
    public FactoryStatistics(List<String> replicaNames, ConsistencyCounts consistency, QueryShapes shapes,
                             AuditCounts audit) {
        this.replicaNames = List.copyOf(replicaNames);
        this.byReplica = adders(replicaNames.size());
        this.consistency = consistency;
        this.shapes = shapes;
        this.audit = audit;
    }

    @Override
    public long auditedReads() {
        return audit.auditedReads();
    }

    @Override
    public long unauditedReads() {
        return audit.unauditedReads();
    }

    @Override
    public long staleReadsAgainstUnit() {
        return audit.staleReadsAgainstUnit();
    }

    @Override
    public long staleReadsAgainstSession() {
        return audit.staleReadsAgainstSession();
    }

    @Override
    public long reads() {
        return shapes.reads();
    }

    @Override
    public long replicaReads() {
        return shapes.replicaReads();
    }

    @Override
    public List<QueryShapeStatistics> queryShapes() {
        return shapes.report();
    }

    @Override
    public List<QueryShapeStatistics> primaryReadShapes() {
        return shapes.primaryReads();
    }

    @Override
    public long lostWriteFailovers() {
        return consistency.lostWriteFailovers();
    }

    @Override
    public long lostWriteReads() {
        return consistency.lostWriteReads();
    }

    @Override
    public long checkedReplicaReads() {
        return consistency.checkedReplicaReads();
    }

    @Override
    public long failedReplicaChecks() {
        return consistency.failedReplicaChecks();
    }

    @Override
    public long replicaPositionQueries() {
        return consistency.replicaPositionQueries();
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    @Override
    public void record(RouteDecision decision, int replicaIndex) {
        // by reason (and so on the primary): counted once, by the statement's query shape (QueryShapes.Shape#routed)
        if (replicaIndex >= 0) {
            byReplica[replicaIndex].increment();
        }
    }

    public List<String> replicaNames() {
        return replicaNames;
    }

    @Override
    public long primaryStatements() {
        long[] counts = shapes.countsByReason();
        long sum = 0;
        for (RouteReason reason : REASONS) {
            if (reason.target() == io.rwsplit.Target.PRIMARY) {
                sum += counts[reason.ordinal()];
            }
        }
        return sum;
    }

    @Override
    public long replicaStatements() {
        long sum = 0;
        for (LongAdder adder : byReplica) {
            sum += adder.sum();
        }
        return sum;
    }

    @Override
    public long count(RouteReason reason) {
        return shapes.count(reason);
    }

    @Override
    public Map<String, Long> byReason() {
        Map<String, Long> map = new LinkedHashMap<>();
        long[] counts = shapes.countsByReason();
        for (RouteReason reason : REASONS) {
            long n = counts[reason.ordinal()];
            if (n != 0) {
                map.put(reason.name(), n);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public Map<String, Long> byReplica() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < byReplica.length; i++) {
            long n = byReplica[i].sum();
            if (n != 0) {
                map.put(replicaNames.get(i), n);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    /**
     * Always {@code null} for a factory: tracking it would make every statement of every thread write one
     * shared field. Use a session's statistics, or the DEBUG log of {@code io.rwsplit.route}.
     */
    @Override
    public RouteDecision lastDecision() {
        return null;
    }

    @Override
    public String toString() {
        return "RoutingStatistics{primary=" + primaryStatements() + ", replica=" + replicaStatements()
                + ", reads=" + reads() + ", replicaReads=" + replicaReads()
                + ", byReason=" + byReason() + ", byReplica=" + byReplica() + "}";
    }
}
