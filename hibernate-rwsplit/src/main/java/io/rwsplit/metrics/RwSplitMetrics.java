package io.rwsplit.metrics;

import java.util.List;
import java.util.function.ToDoubleFunction;

import jakarta.persistence.EntityManagerFactory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.Target;
import io.rwsplit.health.ReplicaHealth;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;

/**
 * Micrometer meters of one persistence unit, read at scrape time from {@link RwSplit#statistics} and
 * {@link RwSplit#health} (nothing is counted twice and the routing path knows nothing of Micrometer).
 * Micrometer is an optional dependency: only this class needs it, and it is loaded only when the
 * application uses it:
 * <pre>{@code new RwSplitMetrics(entityManagerFactory).bindTo(registry);}</pre>
 * <ul>
 *   <li>{@code rwsplit.statements{target,reason}}: routed statements (counter);</li>
 *   <li>{@code rwsplit.replica.statements{replica}}: statements per replica (counter);</li>
 *   <li>{@code rwsplit.replica.lag{replica}}: last measured lag, seconds (gauge);</li>
 *   <li>{@code rwsplit.replica.state{replica,state}}: 1 for the replica's current state, 0 for the others (gauge);</li>
 *   <li>{@code rwsplit.replica.ejections{replica}}: times taken out of rotation (counter);</li>
 *   <li>{@code rwsplit.read.retries{target}}: reads retried after a replica failed (counter);</li>
 *   <li>{@code rwsplit.fallbacks}: reads sent to the primary because no replica was healthy (counter);</li>
 *   <li>{@code rwsplit.replica.share}: the share of replica-eligible reads that replicas served
 *       ({@link RoutingStatistics#replicaReadShare()}, gauge, 0..1);</li>
 *   <li>{@code rwsplit.reads.replica.share}: the share of all reads that replicas served
 *       ({@link RoutingStatistics#readReplicaShare()}, gauge, 0..1);</li>
 *   <li>{@code rwsplit.reads.audited}, {@code rwsplit.reads.unaudited}: replica reads the stale-read audit checked,
 *       and sampled ones it could not (counters);</li>
 *   <li>{@code rwsplit.reads.stale{against=unit|session}}: audited reads whose replica lacked a write the unit had
 *       committed, or what the session's level required (counters);</li>
 *   <li>{@code rwsplit.reads.prevented}: reads the consistency level moved to the primary or made wait
 *       ({@link RoutingStatistics#preventedReads()}, counter);</li>
 *   <li>{@code rwsplit.reads.checked}, {@code rwsplit.reads.checked.failed}: replica reads checked in their own
 *       round trip, and those whose check did not pass ({@link RoutingStatistics#checkedReplicaReads()},
 *       {@link RoutingStatistics#failedReplicaChecks()}, counters);</li>
 *   <li>{@code rwsplit.replica.position.queries}: questions put to replicas about what they applied
 *       ({@link RoutingStatistics#replicaPositionQueries()}, counter);</li>
 *   <li>{@code rwsplit.lost.write.failovers}, {@code rwsplit.lost.write.reads}: failovers of the primary that lost
 *       the unit's writes, and reads that had to see such a write (counters).</li>
 * </ul>
 * All meters carry the extra tags given to the constructor (for example the unit's name).
 */
public final class RwSplitMetrics implements MeterBinder {

    private final EntityManagerFactory factory;
    private final Tags tags;

    public RwSplitMetrics(EntityManagerFactory factory, String... tags) {
        this.factory = factory;
        this.tags = Tags.of(tags);
    }

    /** Shorthand for {@code new RwSplitMetrics(factory, tags).bindTo(registry)}. */
    public static void bindTo(MeterRegistry registry, EntityManagerFactory factory, String... tags) {
        new RwSplitMetrics(factory, tags).bindTo(registry);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        RoutingStatistics stats = RwSplit.statistics(factory);
        for (RouteReason reason : RouteReason.values()) {
            String name = reason.name();
            FunctionCounter.builder("rwsplit.statements", stats, s -> s.count(reason))
                    .tags(tags).tag("target", reason.target().name().toLowerCase(java.util.Locale.ROOT)).tag("reason", name)
                    .description("Statements routed, by target and reason").register(registry);
        }
        for (Target target : Target.values()) {
            RouteReason reason = target == Target.PRIMARY ? RouteReason.RETRY_PRIMARY : RouteReason.RETRY_REPLICA;
            FunctionCounter.builder("rwsplit.read.retries", stats, s -> s.count(reason))
                    .tags(tags).tag("target", target.name().toLowerCase(java.util.Locale.ROOT))
                    .description("Reads retried after their replica failed before returning results").register(registry);
        }
        FunctionCounter.builder("rwsplit.fallbacks", stats, RwSplitMetrics::fallbacks).tags(tags)
                .description("Reads sent to the primary because no replica was healthy").register(registry);
        Gauge.builder("rwsplit.replica.share", stats, RoutingStatistics::replicaReadShare).tags(tags)
                .description("Share of replica-eligible reads served by replicas").register(registry);
        Gauge.builder("rwsplit.reads.replica.share", stats, RoutingStatistics::readReplicaShare).tags(tags)
                .description("Share of all reads (SELECT and the like) served by replicas").register(registry);
        FunctionCounter.builder("rwsplit.reads.audited", stats, RoutingStatistics::auditedReads).tags(tags)
                .description("Replica reads the stale-read audit checked").register(registry);
        FunctionCounter.builder("rwsplit.reads.unaudited", stats, RoutingStatistics::unauditedReads).tags(tags)
                .description("Sampled replica reads the audit could not check (no position to compare)").register(registry);
        FunctionCounter.builder("rwsplit.reads.stale", stats, RoutingStatistics::staleReadsAgainstUnit).tags(tags)
                .tag("against", "unit").description("Audited reads whose replica lacked a write the unit had committed")
                .register(registry);
        FunctionCounter.builder("rwsplit.reads.stale", stats, RoutingStatistics::staleReadsAgainstSession).tags(tags)
                .tag("against", "session")
                .description("Audited reads whose replica lacked what the session's consistency level required")
                .register(registry);
        FunctionCounter.builder("rwsplit.reads.prevented", stats, RoutingStatistics::preventedReads).tags(tags)
                .description("Reads the consistency level sent to the primary or made wait for a replica")
                .register(registry);
        FunctionCounter.builder("rwsplit.reads.checked", stats, RoutingStatistics::checkedReplicaReads).tags(tags)
                .description("Replica reads checked in their own round trip").register(registry);
        FunctionCounter.builder("rwsplit.reads.checked.failed", stats, RoutingStatistics::failedReplicaChecks).tags(tags)
                .description("Replica reads checked in their own round trip whose check did not pass").register(registry);
        FunctionCounter.builder("rwsplit.replica.position.queries", stats, RoutingStatistics::replicaPositionQueries)
                .tags(tags).description("Questions put to replicas about what they applied, before reads there")
                .register(registry);
        FunctionCounter.builder("rwsplit.lost.write.failovers", stats, RoutingStatistics::lostWriteFailovers)
                .tags(tags).description("Failovers of the primary that lost writes the unit had committed")
                .register(registry);
        FunctionCounter.builder("rwsplit.lost.write.reads", stats, RoutingStatistics::lostWriteReads).tags(tags)
                .description("Reads that had to see a write a failover lost (failed, or read the new primary's data)")
                .register(registry);

        List<ReplicaStatus> replicas = RwSplit.health(factory).replicas();
        for (ReplicaStatus replica : replicas) {
            String name = replica.name();
            FunctionCounter.builder("rwsplit.replica.statements", stats, s -> s.byReplica().getOrDefault(name, 0L))
                    .tags(tags).tag("replica", name).description("Statements sent to the replica").register(registry);
            Gauge.builder("rwsplit.replica.lag", factory, status(name, s -> s.lagMicros() / 1e6))
                    .tags(tags).tag("replica", name).baseUnit("seconds")
                    .description("Last measured replication lag").register(registry);
            for (ReplicaState state : ReplicaState.values()) {
                Gauge.builder("rwsplit.replica.state", factory, status(name, s -> s.state() == state ? 1 : 0))
                        .tags(tags).tag("replica", name).tag("state", state.name())
                        .description("1 for the replica's current state").register(registry);
            }
            FunctionCounter.builder("rwsplit.replica.ejections", factory, f -> {
                        Long n = RwSplit.health(f).ejections().get(name);
                        return n == null ? 0 : n;
                    })
                    .tags(tags).tag("replica", name).description("Times the replica was taken out of rotation")
                    .register(registry);
        }
    }

    private static ToDoubleFunction<EntityManagerFactory> status(String replica, ToDoubleFunction<ReplicaStatus> value) {
        return f -> {
            ReplicaHealth health = RwSplit.health(f);
            ReplicaStatus status = health.status(replica);
            return status == null ? Double.NaN : value.applyAsDouble(status);
        };
    }

    static double fallbacks(RoutingStatistics s) {
        return s.count(RouteReason.NO_HEALTHY_REPLICA);
    }
}
