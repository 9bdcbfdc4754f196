package io.rwsplit.internal.hibernate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.config.RwSplitConfig;
import io.rwsplit.internal.config.Secrets;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.health.LagProbes;
import io.rwsplit.internal.replica.ReplicaMonitor;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.route.Lexing;
import io.rwsplit.internal.route.Router;

/**
 * The composition root of one primary and its replicas (a persistence unit, or one tenant of it): the replica
 * pools, the primary's circuit breaker, the causal reads, the router and the replica monitor, built the same way
 * for the single-primary and the multi-tenant providers. {@link #start()} starts the monitor; {@link #close()}
 * stops it, then closes the replica pools.
 */
final class RoutingRuntime implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RoutingRuntime.class);

    private final ReplicaPools replicas;
    private final Router router;
    private final ReplicaMonitor monitor;

    private RoutingRuntime(ReplicaPools replicas, Router router, ReplicaMonitor monitor) {
        this.replicas = replicas;
        this.router = router;
        this.monitor = monitor;
    }

    /**
     * @param label       {@code default} for a single primary, else the tenant
     * @param primary     how connections to the primary are obtained
     * @param primaryName what the startup line calls the primary
     * @param primarySession what replica pools take from the primary: its pool's init SQL, its URL's session properties
     */
    static RoutingRuntime build(String label, PrimarySource primary, String primaryName, RwSplitConfig config,
                                UnitSettings unit, ConsistencyRuntime consistency, PrimarySession primarySession) {
        ReplicaPools replicas = ReplicaPools.build(label, config, unit.clock(), primarySession, unit.queryTimeout());
        try {
            PrimarySource protectedPrimary = ReplicaMonitor.protect(label, primary, config.health(), unit.clock());
            CausalReads causal = new CausalReads(consistency, label, replicas.replicaSet().epochs());
            Router router = new Router(label, protectedPrimary, replicas.replicaSet(), config.fallback(), causal,
                    unit.transactionStatus(), unit.intentSource(), config.health(),
                    Lexing.of(config.replicas().stream().map(ReplicaConfig::url).toList()),
                    new io.rwsplit.internal.stats.QueryShapes(config.queryShapes(), config.timeSample()), config.rules(), config.auditSample());
            ReplicaMonitor monitor = new ReplicaMonitor(replicas.replicaSet(), config.replicas(), config.health(),
                    protectedPrimary, unit.clock(), causal::observed,
                    asOfMicros -> causal.failoverSeen(asOfMicros)::changed, (writable, askedAt, address, identity) -> {
                        router.primaryAnswered(writable, askedAt, address, identity);
                        if (writable) {
                            causal.primaryAnswered(askedAt);
                        }
                    });
            log.info("hibernate-rwsplit: {}routing between the primary ({}) and replicas {}; {}; {}",
                    label.equals("default") ? "" : "tenant " + label + ": ", Secrets.scrub(primaryName), config.replicas(),
                    consistency.config().describe(), LagProbes.describe(config.health(), config.replicas()));
            return new RoutingRuntime(replicas, router, monitor);
        }
        catch (RuntimeException e) {
            replicas.close();
            throw e;
        }
    }

    Router router() {
        return router;
    }

    /** Starts probing the replicas. */
    void start() {
        monitor.start();
    }

    @Override
    public void close() {
        try {
            monitor.close();
        }
        finally {
            replicas.close();
        }
    }
}
