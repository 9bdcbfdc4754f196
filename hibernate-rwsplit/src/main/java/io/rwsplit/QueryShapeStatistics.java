package io.rwsplit;

import java.time.Duration;
import java.util.Map;

/**
 * What one query shape did: a statement's SQL with its literals and {@code IN} lists normalised, so that the statements
 * of one query with different values count together. A snapshot, read when
 * {@link RoutingStatistics#queryShapes()} was called.
 *
 * @param id                 a short id of the shape, stable across runs and instances (12 hexadecimal digits), or
 *                           {@code "other"} for the shapes folded together beyond the table's size
 * @param sql                the normalised SQL ({@code ?} for every literal)
 * @param source             the comment that opened the statement (Hibernate's {@code hibernate.use_sql_comments}
 *                           puts the HQL, the named query or the loaded entity there), or null
 * @param read               whether the shape is a read ({@code SELECT} and the like, locking reads included)
 * @param statements         statements routed
 * @param replicaStatements  of those, served by a replica
 * @param byReason           statements by the reason of their route (only non-zero counts, in declaration order)
 * @param primaryExecutions  executions on the primary
 * @param primaryMeanTime    their mean execution time, estimated from the timed ones ({@link RwSplitSettings#TIME_SAMPLE}:
 *                           each shape's first 8, then one in N at random, each standing for the executions it was
 *                           drawn from; {@link Duration#ZERO} when none was timed)
 * @param primaryMaxTime     the longest timed one
 * @param replicaExecutions  executions on a replica
 * @param replicaMeanTime    their mean execution time, estimated from the timed ones ({@link Duration#ZERO} when none
 *                           was timed)
 * @param replicaMaxTime     the longest timed one
 * @param auditedReads       reads of this shape the stale-read audit checked
 *                           ({@link RoutingStatistics#auditedReads()})
 * @param staleAgainstUnit   of those, the ones whose replica lacked a write the unit had committed
 * @param staleAgainstSession of those, the ones whose replica lacked what the session's level required
 */
public record QueryShapeStatistics(String id, String sql, String source, boolean read, long statements,
                                   long replicaStatements, Map<RouteReason, Long> byReason, long primaryExecutions,
                                   Duration primaryMeanTime, Duration primaryMaxTime, long replicaExecutions,
                                   Duration replicaMeanTime, Duration replicaMaxTime, long auditedReads,
                                   long staleAgainstUnit, long staleAgainstSession) {

    /** The id of the row that holds every shape beyond the table's size. */
    public static final String OTHER = "other";

    public QueryShapeStatistics {
        byReason = byReason.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.EnumMap<>(byReason));
    }

    /**
     * Reads of this shape that the consistency level sent to the primary or made wait because no replica had applied
     * what they required (the reasons {@link RoutingStatistics#PREVENTING_REASONS}).
     */
    public long preventedReads() {
        long n = 0;
        for (RouteReason r : RoutingStatistics.PREVENTING_REASONS) {
            n += byReason.getOrDefault(r, 0L);
        }
        return n;
    }

    /** Statements that stayed on the primary. */
    public long primaryStatements() {
        return statements - replicaStatements;
    }

    /** Share of the statements served by replicas, from 0 to 1 (0 when none was routed). */
    public double replicaShare() {
        return statements == 0 ? 0.0 : (double) replicaStatements / statements;
    }
}
