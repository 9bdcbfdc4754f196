package io.rwsplit.bench.layer;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.Fallback;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.config.SettingsTable;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.health.HealthPolicy;
import io.rwsplit.internal.replica.PoolControl;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.internal.route.Router;
import io.rwsplit.internal.route.RoutingConnection;
import io.rwsplit.internal.route.SessionRouting;
import io.rwsplit.spi.Clock;

/**
 * What hibernate-rwsplit's routing layer costs by itself, below Hibernate and above a driver that does nothing
 * ({@link NoopJdbc}): the calling thread's CPU time and allocation per operation through the routing connection
 * (the router at its defaults: read-your-writes at the unit scope, the default balancer, the stale-read audit and the
 * query-shape statistics on; HikariCP pools for the primary and the replica, as the connection provider builds
 * them; no monitor) minus the same JDBC calls on a HikariCP pool over the same driver. Both run in interleaved
 * batches in one JVM (plain, routed, routed, plain, ...), and each pair of batches gives one difference; the figure
 * is their median, with the quartiles. Operations:
 * <ul>
 *   <li>{@code find}: what Hibernate does for a find by id outside a transaction: a logical connection opened for a
 *   new session (its routing state made as the Hibernate glue makes it), one prepared read with one parameter, its
 *   row read, everything closed;</li>
 *   <li>{@code statement}: the prepared read alone, on a connection that stays open;</li>
 *   <li>{@code session}: the logical connection opened for a new session and closed, with nothing run (the plain
 *   side does nothing: the figure is the routed cost itself).</li>
 * </ul>
 * Before measuring, it proves that the routed reads reached the replica. Usage: {@code RoutingLayerCost [--pairs 60]
 * [--batch 20000] [--warmup-batches 40] [--operations find,statement,session] [--fork 1] [--out layer.tsv]}; each
 * operation prints one line and, with {@code --out}, appends one row.
 */
public final class RoutingLayerCost {

    private static final String SQL = "select i.id, i.name from bench_item i where i.id = ?";
    private static final String LABEL = "layer";

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** The TSV header of {@link Result#tsv()}. */
    static final String TSV_HEADER = "fork\toperation\tpairs\tbatch\tplain_ns\tover_ns\tover_q1\tover_q3\tplain_bytes\tover_bytes";

    /** One measured operation. */
    record Result(int fork, String operation, int pairs, int batch, double plainNanos, double overNanos,
                  double overLow, double overHigh, double plainBytes, double overBytes) {

        String line() {
            return String.format(Locale.ROOT, "layer %s +%.0f ns (quartiles %.0f-%.0f) over %.0f ns plain, %+.0f B over %.0f B;"
                    + " %d pairs of %d", operation, overNanos, overLow, overHigh, plainNanos, overBytes, plainBytes, pairs, batch);
        }

        String tsv() {
            return String.join("\t", String.valueOf(fork), operation, String.valueOf(pairs), String.valueOf(batch),
                    f(plainNanos), f(overNanos), f(overLow), f(overHigh), f(plainBytes), f(overBytes));
        }

        private static String f(double value) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
    }

    @FunctionalInterface
    private interface Operation {
        long run(long id) throws SQLException;
    }

    private final HikariDataSource plain = pool("layer-plain", false);
    private final HikariDataSource primary = pool("layer-primary", false);
    private final HikariDataSource replica = pool("layer-replica", true);
    private final ConsistencyRuntime consistency = ConsistencyRuntime.create(Map.of(), Clock.SYSTEM);
    private final CausalReads causal;
    private final Router router;

    private RoutingLayerCost() {
        PoolControl control = new PoolControl() {
            @Override
            public String initSql() {
                return null;
            }

            @Override
            public void evict(Connection connection) {
                replica.evictConnection(connection);
            }

            @Override
            public boolean lendsAutoCommit() {
                return replica.isAutoCommit();
            }
        };
        ReplicaNode node = new ReplicaNode(0, "r1", 1, 1, replica, false, control);
        ReplicaSet set = new ReplicaSet(LABEL, List.of(node), LoadBalancers.create(
                (String) SettingsTable.LOAD_BALANCER.defaultValue(), List.of(node)), Clock.SYSTEM,
                HealthPolicy.of(HealthConfig.DEFAULTS));
        causal = new CausalReads(consistency, LABEL, set.epochs());
        router = new Router(LABEL, new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                return primary.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                connection.close();
            }
        }, set, Fallback.PRIMARY, causal);
    }

    /** A pool as the provider builds one (the replica's read-only, autocommit), over the no-op driver. */
    private static HikariDataSource pool(String name, boolean readOnly) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(NoopJdbc.dataSource());
        config.setPoolName(name);
        config.setMaximumPoolSize(8);
        config.setReadOnly(readOnly);
        config.setAutoCommit(true);
        return new HikariDataSource(config);
    }

    /** A logical connection for a new session, as Hibernate gets one for it through the connection provider. */
    private RoutingConnection open() {
        SessionRouting session = new SessionRouting((io.rwsplit.internal.stats.StatisticsRecorder) null) {
            @Override
            protected io.rwsplit.internal.consistency.CausalReads causal() {
                return causal;   // its consistency state made when first needed, as a Hibernate session's
            }
        };
        router.beginAcquisition(session);
        try {
            return router.open(false);
        }
        finally {
            router.endAcquisition(session);
        }
    }

    private static long read(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long value = rs.getLong(1);
                return rs.getString(2) == null ? 0 : value;
            }
        }
    }

    private static long closing(Connection c, long id) throws SQLException {
        try (c) {
            return read(c, id);
        }
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int pairs = 60;
        int batch = 20_000;
        int warmupBatches = 40;
        int fork = 1;
        List<String> operations = List.of("find", "statement", "session");
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            if (i + 1 == args.length) {
                throw new IllegalArgumentException("'" + args[i] + "' needs a value; usage: RoutingLayerCost [--pairs 60]"
                        + " [--batch 20000] [--warmup-batches 40] [--operations find,statement,session] [--fork 1]"
                        + " [--out layer.tsv]");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--pairs" -> pairs = Integer.parseInt(value);
                case "--batch" -> batch = Integer.parseInt(value);
                case "--warmup-batches" -> warmupBatches = Integer.parseInt(value);
                case "--fork" -> fork = Integer.parseInt(value);
                case "--operations" -> operations = List.of(value.split(","));
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
            i++;
        }
        if (pairs < 20) {
            throw new IllegalArgumentException("--pairs must be at least 20, was " + pairs);
        }
        THREADS.setThreadCpuTimeEnabled(true);
        THREADS.setThreadAllocatedMemoryEnabled(true);
        List<Result> results = new ArrayList<>();
        RoutingLayerCost layer = new RoutingLayerCost();
        try {
            for (String operation : operations) {
                Result result = layer.measure(operation, fork, pairs, batch, warmupBatches);
                System.out.println(result.line());
                results.add(result);
            }
        }
        finally {
            layer.close();
        }
        if (out != null) {
            io.rwsplit.bench.TsvRows.append(out, TSV_HEADER, results.stream().map(Result::tsv).toList());
        }
    }

    private Result measure(String operation, int fork, int pairs, int batch, int warmupBatches) throws SQLException {
        Connection plainKept = plain.getConnection();
        RoutingConnection routedKept = open();
        try {
            Operation plainOp;
            Operation routedOp;
            switch (operation) {
                case "find" -> {
                    plainOp = id -> closing(plain.getConnection(), id);
                    routedOp = id -> closing(open(), id);
                }
                case "statement" -> {
                    plainOp = id -> read(plainKept, id);
                    routedOp = id -> read(routedKept, id);
                }
                case "session" -> {
                    plainOp = id -> id;
                    routedOp = id -> {
                        open().close();
                        return id;
                    };
                }
                default -> throw new IllegalArgumentException("--operations: unknown '" + operation
                        + "' (find, statement, session)");
            }
            long sink = 0;
            long replicaBefore = router.statistics().replicaStatements();
            for (int i = 0; i < warmupBatches; i++) {
                for (int j = 0; j < batch; j++) {
                    sink += plainOp.run(j);
                    sink += routedOp.run(j);
                }
            }
            if (!operation.equals("session") && (router.statistics().primaryStatements() != 0
                    || router.statistics().replicaStatements() == replicaBefore)) {
                throw new IllegalStateException("the routed reads did not all reach the replica: " + router.statistics());
            }
            long thread = Thread.currentThread().getId();
            double[] over = new double[pairs];
            double[] plainNanos = new double[pairs];
            double[] plainBytes = new double[pairs];
            double[] routedBytes = new double[pairs];
            for (int pair = 0; pair < pairs; pair++) {
                double plainOne = 0;
                double routedOne = 0;
                for (int turn = 0; turn < 2; turn++) {
                    boolean plainTurn = (turn == 0) == (pair % 2 == 0);
                    Operation op = plainTurn ? plainOp : routedOp;
                    long cpu = THREADS.getCurrentThreadCpuTime();
                    long bytes = THREADS.getThreadAllocatedBytes(thread);
                    for (int j = 0; j < batch; j++) {
                        sink += op.run(j);
                    }
                    double nanos = (double) (THREADS.getCurrentThreadCpuTime() - cpu) / batch;
                    double allocated = (double) (THREADS.getThreadAllocatedBytes(thread) - bytes) / batch;
                    if (plainTurn) {
                        plainOne = nanos;
                        plainBytes[pair] = allocated;
                    }
                    else {
                        routedOne = nanos;
                        routedBytes[pair] = allocated;
                    }
                }
                over[pair] = routedOne - plainOne;
                plainNanos[pair] = plainOne;
            }
            if (sink == 42) {
                System.out.println();   // keeps the work from being optimised away
            }
            double plainMedianBytes = median(plainBytes);
            return new Result(fork, operation, pairs, batch, median(plainNanos), median(over), quantile(over, 0.25),
                    quantile(over, 0.75), plainMedianBytes, median(routedBytes) - plainMedianBytes);
        }
        finally {
            plainKept.close();
            routedKept.close();
        }
    }

    private static double median(double[] values) {
        return quantile(values, 0.5);
    }

    private static double quantile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.round(q * (sorted.length - 1))];
    }

    private void close() {
        plain.close();
        primary.close();
        replica.close();
        consistency.close();
    }
}
