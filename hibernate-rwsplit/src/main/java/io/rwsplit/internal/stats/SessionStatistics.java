package io.rwsplit.internal.stats;

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
    /**
     * Counts per reason and per replica, allocated at the second statement: most sessions of a web request
     * route one or two statements, and their counts are read from {@link #last} and {@link #firstReplica}.
     */
    private long[] byReason;
    private long[] byReplica;
    private long primary;
    private long replica;
    private RouteDecision last;
    /** The replica index of the first statement (-1 for the primary), while the counts are not allocated. */
    private int firstReplica;

    public SessionStatistics(List<String> replicaNames) {
        this.replicaNames = replicaNames;
    }

    @Override
    public void record(RouteDecision decision, int replicaIndex) {
        if (replicaIndex < 0) {
            primary++;
        }
        else {
            replica++;
        }
        if (last == null) {
            firstReplica = replicaIndex;
        }
        else {
            if (byReason == null) {
                byReason = new long[REASONS.length];
                byReplica = new long[replicaNames.size()];
                count(last, firstReplica);
            }
            count(decision, replicaIndex);
        }
        last = decision;
    }

    @Override
    public void recordKept(RouteDecision decision) {
        record(decision, decision.replica() == null ? -1 : replicaNames.indexOf(decision.replica()));
    }

    private void count(RouteDecision decision, int replicaIndex) {
        byReason[decision.reason().ordinal()]++;
        if (replicaIndex >= 0) {
            byReplica[replicaIndex]++;
        }
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
    public long count(RouteReason reason) {
        if (byReason == null) {
            return last != null && last.reason() == reason ? 1 : 0;
        }
        return byReason[reason.ordinal()];
    }

    @Override
    public Map<String, Long> byReason() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (RouteReason reason : REASONS) {
            long n = count(reason);
            if (n != 0) {
                map.put(reason.name(), n);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public Map<String, Long> byReplica() {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < replicaNames.size(); i++) {
            long n = byReplica != null ? byReplica[i] : last != null && firstReplica == i ? 1 : 0;
            if (n != 0) {
                map.put(replicaNames.get(i), n);
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
