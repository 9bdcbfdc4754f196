package io.rwsplit.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;

/**
 * Statistics of one session. A session is used by one thread at a time, so plain fields suffice;
 * they are read by the same thread through {@code RwSplit.statistics(EntityManager)}.
 */
public final class SessionStatistics implements RoutingStatistics, StatisticsRecorder {

    private static final RouteReason[] REASONS = RouteReason.values();

    private final List<String> replicaNames;
    private final long[] byReason = new long[REASONS.length];
    private final long[] byReplica;
    private long primary;
    private long replica;
    private RouteDecision last;

    public SessionStatistics(List<String> replicaNames) {
        this.replicaNames = replicaNames;
        this.byReplica = new long[replicaNames.size()];
    }

    @Override
    public void record(RouteDecision decision, int replicaIndex) {
        byReason[decision.reason().ordinal()]++;
        if (replicaIndex < 0) {
            primary++;
        }
        else {
            replica++;
            byReplica[replicaIndex]++;
        }
        last = decision;
    }

    @Override
    public long primaryStatements() {
        return primary;
    }

    @Override
    public long replicaStatements() {
        return replica;
    }

    @Override
    public Map<String, Long> byReason() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (RouteReason reason : REASONS) {
            if (byReason[reason.ordinal()] != 0) {
                map.put(reason.name(), byReason[reason.ordinal()]);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public Map<String, Long> byReplica() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < byReplica.length; i++) {
            if (byReplica[i] != 0) {
                map.put(replicaNames.get(i), byReplica[i]);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public RouteDecision lastDecision() {
        return last;
    }

    @Override
    public String toString() {
        return "RoutingStatistics{primary=" + primary + ", replica=" + replica + ", byReason=" + byReason()
                + ", byReplica=" + byReplica() + "}";
    }
}
