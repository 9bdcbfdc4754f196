package io.rwsplit;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts of routed statements, for one session ({@link RwSplit#statistics(jakarta.persistence.EntityManager)})
 * or for a whole factory ({@link RwSplit#statistics(jakarta.persistence.EntityManagerFactory)}).
 * Values are read when the method is called; maps are snapshots with a stable order (reasons in
 * declaration order, replicas in configuration order) and contain only non-zero counts.
 */
public interface RoutingStatistics {

    /** Statements sent to the primary. */
    long primaryStatements();

    /** Statements sent to any replica. */
    long replicaStatements();

    /** Statements by {@link RouteReason} name. */
    Map<String, Long> byReason();

    /** Statements routed for {@code reason}; 0 when none was. */
    default long count(RouteReason reason) {
        return byReason().getOrDefault(reason.name(), 0L);
    }

    /** Replica statements by replica name. */
    Map<String, Long> byReplica();

    /** The session's most recent decision, or {@code null} if nothing was routed yet (always {@code null} for a factory). */
    RouteDecision lastDecision();

    /** All statements. */
    default long totalStatements() {
        return primaryStatements() + replicaStatements();
    }

    /** Share of statements served by replicas, between 0 and 1 (0 when nothing was routed). */
    default double replicaShare() {
        long total = totalStatements();
        return total == 0 ? 0.0 : (double) replicaStatements() / total;
    }

    /**
     * Share of replica-eligible reads that replicas served: replica statements over replica statements plus
     * reads that fell back to the primary ({@code NO_HEALTHY_REPLICA}, {@code REPLICA_POOL_EXHAUSTED_PRIMARY},
     * {@code RETRY_PRIMARY}); 1 when nothing fell back, NaN before any read. Shows what replica health and busy
     * replica pools cost.
     */
    default double replicaReadShare() {
        Map<String, Long> reasons = byReason();
        double replica = replicaStatements();
        double fellBack = reasons.getOrDefault(RouteReason.NO_HEALTHY_REPLICA.name(), 0L)
                + reasons.getOrDefault(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name(), 0L)
                + reasons.getOrDefault(RouteReason.RETRY_PRIMARY.name(), 0L);
        return replica + fellBack == 0 ? Double.NaN : replica / (replica + fellBack);
    }

    /**
     * Reads routed: statements that read ({@code SELECT} and the like: plain reads, locking reads, reads of functions
     * that must run on the primary such as {@code nextval}), wherever they ran; 0 for a session's statistics.
     */
    default long reads() {
        return 0;
    }

    /** Of the {@link #reads()}, those replicas served; 0 for a session's statistics. */
    default long replicaReads() {
        return 0;
    }

    /**
     * Share of reads served by replicas: {@link #replicaReads()} over {@link #reads()}, from 0 to 1; NaN before any
     * read. Unlike {@link #replicaShare()} (all statements, writes included) and {@link #replicaReadShare()} (only
     * reads that could have gone to a replica), this is the share of all reads: what a read/write split is judged by.
     */
    default double readReplicaShare() {
        long reads = reads();
        return reads == 0 ? Double.NaN : (double) replicaReads() / reads;
    }

    /**
     * The query shapes with most statements, most first ({@link RwSplitSettings#QUERY_SHAPES} of them), then one
     * {@link QueryShapeStatistics#OTHER} row for the rest; empty for a session's statistics.
     */
    default List<QueryShapeStatistics> queryShapes() {
        return List.of();
    }

    /**
     * Where reads stay on the primary: the read shapes with most reads served by the primary, most first, with their
     * reasons ({@link QueryShapeStatistics#byReason()}); empty for a session's statistics.
     */
    default List<QueryShapeStatistics> primaryReadShapes() {
        return List.of();
    }

    /**
     * The reasons of reads that the consistency level sent to the primary or made wait because no replica had applied
     * what they required: the stale reads it prevented ({@link #preventedReads()}).
     */
    Set<RouteReason> PREVENTING_REASONS = java.util.Collections.unmodifiableSet(java.util.EnumSet.of(
            RouteReason.CAUSAL_WAIT, RouteReason.UNIT_CAUSAL_WAIT, RouteReason.CAUSAL_BEHIND_PRIMARY,
            RouteReason.UNIT_CAUSAL_BEHIND_PRIMARY, RouteReason.CAUSAL_TIMEOUT_PRIMARY,
            RouteReason.UNIT_CAUSAL_TIMEOUT_PRIMARY, RouteReason.READ_YOUR_WRITES_PRIMARY,
            RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, RouteReason.STALENESS_BOUND_PRIMARY));

    /** Reads routed for one of the {@link #PREVENTING_REASONS}: stale reads the consistency level prevented. */
    default long preventedReads() {
        long n = 0;
        for (RouteReason r : PREVENTING_REASONS) {
            n += count(r);
        }
        return n;
    }

    /**
     * Replica reads the stale-read audit checked ({@link RwSplitSettings#AUDIT_SAMPLE}: one in N): after the read, the
     * position the replica had applied, compared with what was committed when the read was routed (in a read-only
     * transaction, when its first read was); 0 for a session's statistics.
     */
    default long auditedReads() {
        return 0;
    }

    /**
     * Sampled replica reads the audit could not check: no position to read or compare (H2, {@code time} mode, a server
     * without GTIDs, a failed query). When only these grow, the audit is unavailable, not zero.
     */
    default long unauditedReads() {
        return 0;
    }

    /**
     * Audited reads whose replica had not applied a write this unit (in this JVM) had committed before the read was
     * routed (in a read-only transaction, before its first read was): reads that could have been stale, whether or not
     * they needed that write. Can be too high by reads that ran in the moment between a replica making a write visible
     * and moving its position past it.
     */
    default long staleReadsAgainstUnit() {
        return 0;
    }

    /**
     * Audited reads whose replica had not applied what the session's consistency level required when the read was routed
     * (its scope's writes, the unit's by default; nothing under {@code eventual}): a broken read-your-writes, always 0
     * unless something is wrong.
     */
    default long staleReadsAgainstSession() {
        return 0;
    }

    /**
     * How many failovers of the primary lost writes this persistence unit had committed (the new primary did not
     * have its last one: asynchronous replication); 0 for a session's statistics. Each is also logged at ERROR.
     */
    default long lostWriteFailovers() {
        return 0;
    }

    /**
     * How many reads of this persistence unit had to see a write a failover lost: they failed with
     * {@link LostWriteException}, or, with {@link RwSplitSettings#LOST_WRITES} {@code log}, read the new primary's
     * data and were logged at WARN; 0 for a session's statistics.
     */
    default long lostWriteReads() {
        return 0;
    }

    /**
     * Replica reads that were made sure of in their own round trip: on a PostgreSQL standby that can only be asked what
     * it replayed (no {@code WAIT FOR LSN}), a read that must see a write the standby is not known to have is sent in
     * one message with that question; counted when the answer came back (a read that failed on the standby lost it,
     * and is made sure of by asking). 0 for a session's statistics and on other servers.
     */
    default long checkedReplicaReads() {
        return 0;
    }

    /**
     * Of the {@linkplain #checkedReplicaReads() checked reads}, those whose check did not pass: mostly a standby that had
     * not replayed what they must see, also a server that answered as no standby, or replica reads found to run above
     * READ COMMITTED (which ends such checks). Their rows were dropped, and each waited for the standby, sharing its poll
     * (the check was its first question), and ran again there, or ran on the primary. Each cost the standby a read
     * whose rows were not used. 0 for a session's statistics.
     */
    default long failedReplicaChecks() {
        return 0;
    }

    /**
     * Questions put to replicas, before a read there, about what they applied: a wait's statement
     * ({@code MASTER_GTID_WAIT}, {@code WAIT_FOR_EXECUTED_GTID_SET}, {@code WAIT FOR LSN}) or one poll of a standby's
     * replayed position ({@code pg_last_wal_replay_lsn()}; the reads waiting on one standby share its polls). Not the
     * checks of {@link #checkedReplicaReads()}, nor the health monitor's. 0 for a session's statistics.
     */
    default long replicaPositionQueries() {
        return 0;
    }
}
