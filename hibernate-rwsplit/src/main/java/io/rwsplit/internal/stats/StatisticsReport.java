package io.rwsplit.internal.stats;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;

/** The statistics of a factory as text for a log: the read share, where reads stay on the primary, the top shapes. */
public final class StatisticsReport {

    /** How much of a shape's SQL a line shows. */
    static final int SQL_WIDTH = 120;

    private StatisticsReport() {
    }

    public static String of(String label, RoutingStatistics s) {
        StringBuilder out = new StringBuilder();
        long reads = s.reads();
        out.append("hibernate-rwsplit [").append(label).append("]: reads ").append(reads).append(", on replicas ")
                .append(s.replicaReads()).append(" (").append(percent(s.readReplicaShare())).append("); statements ")
                .append(s.totalStatements()).append(" (primary ").append(s.primaryStatements()).append(", replicas ")
                .append(s.replicaStatements()).append(")");
        out.append("\nstale-read audit: ");
        if (s.auditedReads() == 0 && s.unauditedReads() > 0) {
            out.append("unavailable (").append(s.unauditedReads())
                    .append(" sampled reads, no replica position to compare: H2, time mode or no GTIDs)");
        }
        else {
            out.append(s.auditedReads()).append(" reads audited, stale against the unit ").append(s.staleReadsAgainstUnit())
                    .append(", against the session ").append(s.staleReadsAgainstSession());
            if (s.unauditedReads() > 0) {
                out.append(", ").append(s.unauditedReads()).append(" not audited");
            }
        }
        out.append("; prevented ").append(s.preventedReads());
        List<QueryShapeStatistics> onPrimary = s.primaryReadShapes();
        out.append("\nwhere reads stay on the primary:");
        if (onPrimary.isEmpty()) {
            out.append(" nowhere");
        }
        for (QueryShapeStatistics q : onPrimary) {
            out.append(String.format(Locale.ROOT, "%n  %-12s %8d of %8d on the primary  %s%n               %s",
                    q.id(), q.primaryStatements(), q.statements(), primaryReasons(q.byReason()), sql(q)));
        }
        out.append("\nquery shapes (statements, replica share, mean time on primary / replica):");
        for (QueryShapeStatistics q : s.queryShapes()) {
            out.append(String.format(Locale.ROOT, "%n  %-12s %8d %7s  %s / %s  %s", q.id(), q.statements(),
                    percent(q.replicaShare()), millis(q.primaryMeanTime(), q.primaryExecutions()),
                    millis(q.replicaMeanTime(), q.replicaExecutions()), sql(q)));
        }
        return out.toString();
    }

    private static String primaryReasons(Map<RouteReason, Long> byReason) {
        StringBuilder s = new StringBuilder();
        byReason.forEach((reason, n) -> {
            if (reason.target() == io.rwsplit.Target.PRIMARY) {
                s.append(s.length() == 0 ? "" : ", ").append(reason).append(' ').append(n);
            }
        });
        return s.toString();
    }

    private static String sql(QueryShapeStatistics q) {
        String text = q.source() != null ? "/* " + q.source() + " */ " + q.sql() : q.sql();
        return text.length() <= SQL_WIDTH ? text : text.substring(0, SQL_WIDTH - 3) + "...";
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String millis(Duration d, long executions) {
        return executions == 0 ? "-" : String.format(Locale.ROOT, "%.3f ms", d.toNanos() / 1e6);
    }
}
