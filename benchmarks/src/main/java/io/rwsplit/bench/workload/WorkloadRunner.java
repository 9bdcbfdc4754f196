package io.rwsplit.bench.workload;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.persistence.EntityManager;

import io.rwsplit.RwSplit;
import io.rwsplit.bench.BenchItem;
import io.rwsplit.bench.Database;
import io.rwsplit.bench.Replication;
import io.rwsplit.bench.RoutingProof;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * The replicated workload: concurrent simulated users against the scripts/cluster.sh (or scripts/pg-cluster.sh)
 * cluster, each operation in a new {@code EntityManager} (a new request). A write increments the user's own row;
 * a read of that row counts as stale when it sees an older counter than the user last committed
 * (read-after-write). What each user repeats is its {@link Pattern}: by default ({@code mix}) 80% reads and 20%
 * writes, half of the reads of the own row, the other half of a random row; with {@code write-readback-N} a
 * write, its read-back and N reads of random rows.
 * <p>
 * Usage: {@code WorkloadRunner [--database mariadb|postgres] --port 3307 --users 8 --seconds 15 --warmup 3 --lag none
 * --modes PRIMARY_ONLY,EVENTUAL,... --rounds 1 --pattern mix --prove true --extra max_lag=0
 * --alternate "audit_sample=0|audit_sample=1" --prime 0 --out results.tsv}. With {@code --rounds N} the modes run N
 * times, round {@code r} (from 0) starting with the {@code r}-th mode, the others following in their order
 * ({@code P,R,A}: P R A, R A P, A P R, P R A ...): over as many rounds as there are modes each runs once in every
 * place, so that what the order favours (the JIT, the servers' caches, the load of the runs before) is not always the
 * same mode's; the pattern section pairs each mode's run with plain Hibernate's of the same round.
 * With {@code --alternate A|B|...} each mode cell runs once with each set of settings
 * added to hibernate-rwsplit's (a round; the alternative that runs first rotates from one cell to the next). With
 * {@code --prime S} every mode named first runs once for {@code S} seconds, unrecorded, before the recorded cells: on
 * a machine whose cores the users and the servers keep busy the JIT compiler gets little time, and throughput kept
 * rising for about a minute of cells here, which favours whichever mode runs later. The injected lag is
 * applied by the caller (scripts/bench.sh runs {@code cluster.sh delay}); {@code --lag} only labels the rows. One TSV
 * row per run is appended to {@code --out} (a mode named twice runs twice); a pattern other than {@code mix} is
 * named at the end of the row's settings. With {@code --prove true} (the default) each mode's stack must first
 * pass {@link RoutingProof}; scripts/bench.sh turns it off in the lag cells, where hibernate-rwsplit may send
 * reads to the primary on purpose. On MariaDB each row also counts the SELECTs every server executed during the
 * measurement ({@code Com_select}), a routing check that needs nothing from the client; PostgreSQL keeps no such
 * counter (short of pg_stat_statements), so there the two columns hold {@code -} and the replica reads come from
 * the module's session statistics only.
 */
public final class WorkloadRunner {

    static final String HEADER = String.join("\t", "lag", "mode", "settings", "users", "seconds", "ops", "ops_per_s",
            "read_p50_us", "read_p99_us", "write_p50_us", "write_p99_us", "reads", "replica_reads",
            "checked_reads", "stale_reads", "errors", "read_after_write_p99_us", "primary_selects", "replica_selects",
            "client_cpu_us_per_op", "primary_cpu_us_per_op", "replicas_cpu_us_per_op", "cores_busy", "status");

    static final int WRITE_PERCENT = 20;

    private final Database db;
    private final int users;
    private final int seconds;
    private final int warmupSeconds;
    private final boolean prove;
    private final Pattern pattern;
    /** Settings added to every hibernate-rwsplit mode ({@code --extra key=value,...}), e.g. {@code max_lag=0} under injected lag. */
    private final Map<String, String> extra = new LinkedHashMap<>();
    /** This JVM's and the servers' CPU (null: not measurable here, the CPU columns then hold "-"). */
    private ServerCpu cpu;

    private WorkloadRunner(Database db, int users, int seconds, int warmupSeconds, boolean prove, Pattern pattern) {
        this.db = db;
        this.users = users;
        this.seconds = seconds;
        this.warmupSeconds = warmupSeconds;
        this.prove = prove;
        this.pattern = pattern;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        boolean postgres = "postgres".equals(options.getOrDefault("database", "mariadb"));
        int port = Integer.parseInt(options.getOrDefault("port", postgres ? "5441" : "3307"));
        int users = Integer.parseInt(options.getOrDefault("users", "8"));
        if (users < 1 || users >= Schema.ROWS / 2) {
            throw new IllegalArgumentException("--users must be between 1 and " + (Schema.ROWS / 2 - 1) + ": " + users);
        }
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "1"));
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be 1 or more: " + rounds);
        }
        WorkloadRunner runner = new WorkloadRunner(postgres ? Database.postgresCluster(port, 2) : Database.cluster(port, 2), users,
                Integer.parseInt(options.getOrDefault("seconds", "15")),
                Integer.parseInt(options.getOrDefault("warmup", "3")),
                Boolean.parseBoolean(options.getOrDefault("prove", "true")),
                Pattern.parse(options.getOrDefault("pattern", "mix")));
        runner.extra.putAll(settings(options.getOrDefault("extra", "")));
        List<Map<String, String>> alternatives = new ArrayList<>();
        for (String alternative : options.getOrDefault("alternate", "").split("\\|")) {
            if (!alternative.isBlank()) {
                alternatives.add(settings(alternative));
            }
        }
        String lag = options.getOrDefault("lag", "none");
        Path out = Path.of(options.getOrDefault("out", "workload.tsv"));
        if (!Files.exists(out)) {
            Files.writeString(out, HEADER + "\n", StandardCharsets.UTF_8);
        }
        // the replicas of a replicated cluster (MariaDB or PostgreSQL) get the table through replication
        Schema.recreate(runner.db.primaryUrl(), runner.db.user(), runner.db.password(), runner.db.mariadb());
        List<String> servers = new ArrayList<>();
        servers.add(runner.db.primaryUrl());
        servers.addAll(runner.db.replicaUrls());
        runner.cpu = ServerCpu.open(servers, runner.db.user(), runner.db.password(), runner.db.mariadb());
        String allModes = String.join(",", java.util.Arrays.stream(Mode.values()).map(Mode::name).toList());
        String[] modes = options.getOrDefault("modes", allModes).split(",");
        int prime = Integer.parseInt(options.getOrDefault("prime", "0"));
        if (prime > 0) {
            java.util.Set<Mode> distinct = new java.util.LinkedHashSet<>();
            for (String name : modes) {
                distinct.add(Mode.valueOf(name.trim()));
            }
            WorkloadRunner primer = new WorkloadRunner(runner.db, runner.users, prime, 0, false, runner.pattern);
            primer.extra.putAll(runner.extra);
            if (!alternatives.isEmpty()) {
                primer.extra.putAll(alternatives.get(0));
            }
            for (Mode mode : distinct) {
                System.out.println("(priming " + mode.name() + ", " + prime + " s, unrecorded)");
                primer.run(mode, lag);
            }
        }
        Map<String, String> common = new LinkedHashMap<>(runner.extra);
        for (int cell = 0; cell < rounds * modes.length; cell++) {
            // round r starts with the r-th mode, the others following in their order
            int round = cell / modes.length;
            int place = cell % modes.length;
            Mode mode = Mode.valueOf(modes[(round + place) % modes.length].trim());
            int k = Math.max(1, alternatives.size());
            for (int a = 0; a < k; a++) {
                runner.extra.clear();
                runner.extra.putAll(common);
                if (!alternatives.isEmpty()) {
                    // each mode cell runs every alternative, the first one rotating: no alternative always runs first
                    runner.extra.putAll(alternatives.get((cell + a) % k));
                }
                String row = runner.run(mode, lag);
                System.out.println(row);
                Files.writeString(out, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            }
        }
    }

    /** {@code key=value,...} as hibernate-rwsplit settings ({@code audit_sample=1} is {@code hibernate.rwsplit.audit_sample}). */
    private static Map<String, String> settings(String text) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                settings.put("hibernate.rwsplit." + pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return settings;
    }

    /** {@code --name value} pairs of a command line, in order (also {@link SpreadCeiling}'s). */
    static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got: " + String.join(" ", args));
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    /** One cell: resets the counters, runs the users for warm-up plus measurement, returns the TSV row. */
    String run(Mode mode, String lag) throws InterruptedException {
        boolean routed = mode.variant == Variant.RWSPLIT || mode.variant == Variant.RWSPLIT_TX;
        Map<String, String> settings = new LinkedHashMap<>(mode.settings);
        StringBuilder described = new StringBuilder(mode.describe());
        if (routed) {
            settings.putAll(extra);
            extra.forEach((k, v) -> described.append(", ").append(k.substring("hibernate.rwsplit.".length())).append('=').append(v));
        }
        if (!pattern.mix()) {
            described.append("; pattern ").append(pattern.describe());
        }
        String prefix = String.join("\t", lag, mode.name(), described, String.valueOf(users), String.valueOf(seconds));
        resetCounters();
        Stack stack;
        try {
            stack = Stack.open(mode.variant, db, settings);
        }
        catch (RuntimeException e) {
            return prefix + "\t" + "\t".repeat(18) + "failed: " + firstClause(rootMessage(e));
        }
        try {
            if (prove) {
                try {
                    RoutingProof.verify("workload", stack, db);
                }
                catch (RuntimeException e) {
                    return prefix + "\t" + "\t".repeat(18) + "failed: routing proof: " + oneLine(e.getMessage());
                }
                resetCounters();
            }
            String row = prefix + "\t" + measure(stack, routed, routed && mode.namesScope);
            if (routed) {
                // where the reads went and why (stdout only, beside the row): the first thing to read when a ratio moves
                io.rwsplit.RoutingStatistics statistics = io.rwsplit.RwSplit.statistics(stack.factory());
                System.out.println("  reasons: " + statistics.byReason());
                System.out.println("  since the factory opened (warm-up included): checked reads: " + statistics.checkedReplicaReads() + ", failed checks: "
                        + statistics.failedReplicaChecks() + ", questions to replicas: "
                        + statistics.replicaPositionQueries());
            }
            return row;
        }
        finally {
            stack.close();
        }
    }

    private String measure(Stack stack, boolean routed, boolean namesScope) throws InterruptedException {
        List<User> all = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            all.add(new User(i + 1, stack, routed, namesScope));
        }
        long start = System.nanoTime();
        long measureFrom = start + warmupSeconds * 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        CountDownLatch done = new CountDownLatch(users);
        for (User user : all) {
            Thread thread = new Thread(() -> {
                try {
                    user.run(measureFrom, end);
                }
                finally {
                    done.countDown();
                }
            }, "user-" + user.ownId);
            thread.start();
        }
        sleepUntil(measureFrom);
        ServerCpu.Sample cpuBefore = cpu == null ? null : cpu.sample();
        long[] selectsBefore = selects();
        sleepUntil(end);
        ServerCpu.Sample cpuAfter = cpu == null ? null : cpu.sample();
        long[] selectsAfter = selects();
        String primarySelects = "-";
        String replicaSelects = "-";
        if (selectsAfter != null) {
            primarySelects = String.valueOf(selectsAfter[0] - selectsBefore[0]);
            long onReplicas = 0;
            for (int i = 1; i < selectsAfter.length; i++) {
                onReplicas += selectsAfter[i] - selectsBefore[i];
            }
            replicaSelects = String.valueOf(onReplicas);
        }
        done.await();
        LatencyLog reads = LatencyLog.merge(all.stream().map(u -> u.readLatencies).toList());
        LatencyLog writes = LatencyLog.merge(all.stream().map(u -> u.writeLatencies).toList());
        LatencyLog readsAfterWrite = LatencyLog.merge(all.stream().map(u -> u.readAfterWriteLatencies).toList());
        long replicaReads = all.stream().mapToLong(u -> u.replicaReads).sum();
        long checked = all.stream().mapToLong(u -> u.checkedReads).sum();
        long stale = all.stream().mapToLong(u -> u.staleReads).sum();
        long errors = all.stream().mapToLong(u -> u.errors).sum();
        String firstError = all.stream().map(u -> u.firstError).filter(e -> e != null).findFirst().orElse(null);
        long ops = reads.size() + writes.size();
        return String.join("\t",
                String.valueOf(ops), String.format(Locale.ROOT, "%.1f", ops / (double) seconds),
                String.valueOf(reads.quantileMicros(0.50)), String.valueOf(reads.quantileMicros(0.99)),
                String.valueOf(writes.quantileMicros(0.50)), String.valueOf(writes.quantileMicros(0.99)),
                String.valueOf(reads.size()), String.valueOf(replicaReads), String.valueOf(checked), String.valueOf(stale),
                String.valueOf(errors), String.valueOf(readsAfterWrite.quantileMicros(0.99)),
                primarySelects, replicaSelects, cpuColumns(cpuBefore, cpuAfter, ops, (end - measureFrom) / 1e9),
                firstError == null ? "ok" : "ok, first error: " + firstError);
    }

    /**
     * The CPU each operation cost this JVM, the primary and the replicas together (µs), and how many cores all of them
     * kept busy: four tab-separated fields, "-" each when not measured.
     */
    static String cpuColumns(ServerCpu.Sample before, ServerCpu.Sample after, long ops, double seconds) {
        if (before == null || after == null || ops == 0) {
            return "-\t-\t-\t-";
        }
        double client = after.clientNanos() - before.clientNanos();
        double primary = after.serverNanos()[0] - before.serverNanos()[0];
        double replicas = 0;
        for (int i = 1; i < after.serverNanos().length; i++) {
            replicas += after.serverNanos()[i] - before.serverNanos()[i];
        }
        return String.format(Locale.ROOT, "%.1f\t%.1f\t%.1f\t%.2f", client / 1e3 / ops, primary / 1e3 / ops,
                replicas / 1e3 / ops, (client + primary + replicas) / 1e9 / seconds);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }

    /**
     * {@code Com_select} of the primary and then of each replica: SELECTs each server executed so far; null on
     * PostgreSQL, which counts no statements by kind.
     */
    private long[] selects() {
        if (!db.mariadb()) {
            return null;
        }
        long[] counts = new long[1 + db.replicaUrls().size()];
        counts[0] = comSelect(db.primaryUrl());
        for (int i = 0; i < db.replicaUrls().size(); i++) {
            counts[i + 1] = comSelect(db.replicaUrls().get(i));
        }
        return counts;
    }

    private long comSelect(String url) {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
             Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("show global status like 'Com_select'")) {
            return rs.next() ? rs.getLong(2) : 0;
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot read Com_select at " + url + ": " + e.getMessage(), e);
        }
    }

    private void resetCounters() {
        try (Connection c = DriverManager.getConnection(db.primaryUrl(), db.user(), db.password());
             Statement s = c.createStatement()) {
            s.executeUpdate("update bench_item set counter = 0");
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot reset bench_item: " + e.getMessage(), e);
        }
        Replication.awaitReplicas(db);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return oneLine(root.getClass().getSimpleName() + ": " + root.getMessage());
    }

    /** The start of an error message up to its first ';' (the core lists every known key after it). */
    private static String firstClause(String message) {
        int semicolon = message.indexOf(';');
        return semicolon < 0 ? message : message.substring(0, semicolon);
    }

    private static String oneLine(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    /** One simulated user: its own row, its last committed counter, its measurements. */
    private final class User {
        final long ownId;
        final Stack stack;
        final boolean routed;
        final boolean namesScope;
        final String scopeKey;
        final LatencyLog readLatencies = new LatencyLog();
        /** Reads of the user's own row: read-after-write. */
        final LatencyLog readAfterWriteLatencies = new LatencyLog();
        final LatencyLog writeLatencies = new LatencyLog();
        long lastWritten;
        long replicaReads;
        long checkedReads;
        long staleReads;
        long errors;
        String firstError;
        /** Whether the last read's session showed its statement on a replica (routed modes only). */
        boolean lastReadOnReplica;

        User(long ownId, Stack stack, boolean routed, boolean namesScope) {
            this.ownId = ownId;
            this.stack = stack;
            this.routed = routed;
            this.namesScope = namesScope;
            this.scopeKey = "user-" + ownId;
        }

        void run(long measureFrom, long end) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            if (pattern.mix()) {
                boolean running = true;
                while (running) {
                    if (random.nextInt(100) < WRITE_PERCENT) {
                        running = timedWrite(measureFrom, end);
                    }
                    else {
                        boolean own = random.nextBoolean();
                        running = timedRead(own ? ownId : otherRow(random), own, measureFrom, end);
                    }
                }
                return;
            }
            while (timedWrite(measureFrom, end) && timedRead(ownId, true, measureFrom, end)) {
                for (int i = 0; i < pattern.otherReads(); i++) {
                    if (!timedRead(otherRow(random), false, measureFrom, end)) {
                        return;
                    }
                }
            }
        }

        /** A random row that no user writes. */
        private long otherRow(ThreadLocalRandom random) {
            return users + 1 + random.nextInt(Schema.ROWS - users);
        }

        /** Writes the own row unless the run is over (false then); measured when it starts at or after {@code measureFrom}. */
        private boolean timedWrite(long measureFrom, long end) {
            long now = System.nanoTime();
            if (now >= end) {
                return false;
            }
            try {
                write();
                if (now >= measureFrom) {
                    writeLatencies.add(System.nanoTime() - now);
                }
            }
            catch (RuntimeException e) {
                failed(e);
            }
            return true;
        }

        /** Reads row {@code id} (the own row when {@code own}) unless the run is over (false then). */
        private boolean timedRead(long id, boolean own, long measureFrom, long end) {
            long now = System.nanoTime();
            if (now >= end) {
                return false;
            }
            boolean measured = now >= measureFrom;
            try {
                read(id, own, measured);
                if (measured) {
                    long took = System.nanoTime() - now;
                    readLatencies.add(took);
                    if (own) {
                        readAfterWriteLatencies.add(took);
                    }
                }
            }
            catch (RuntimeException e) {
                failed(e);
            }
            return true;
        }

        private void failed(RuntimeException e) {
            errors++;
            if (firstError == null) {
                firstError = rootMessage(e);
            }
        }

        /** The operation's EntityManager, given the user's consistency scope when the mode names one. */
        private EntityManager scoped(EntityManager em) {
            if (namesScope) {
                RwSplit.scope(em, scopeKey);
            }
            return em;
        }

        private void write() {
            stack.write(em -> {
                BenchItem item = scoped(em).find(BenchItem.class, ownId);
                item.setCounter(lastWritten + 1);
                return item;
            });
            lastWritten++;
        }

        private void read(long id, boolean own, boolean measured) {
            long counter = stack.read(em -> {
                BenchItem item = scoped(em).find(BenchItem.class, id);
                lastReadOnReplica = routed && RwSplit.statistics(em).replicaStatements() > 0;
                return item.getCounter();
            });
            if (!measured) {
                return;
            }
            if (lastReadOnReplica) {
                replicaReads++;
            }
            if (own) {
                checkedReads++;
                if (counter < lastWritten) {
                    staleReads++;
                }
            }
        }
    }
}
