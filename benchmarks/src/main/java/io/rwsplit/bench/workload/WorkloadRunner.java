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
import jakarta.persistence.EntityManagerFactory;

import io.rwsplit.RwSplit;
import io.rwsplit.bench.BenchItem;
import io.rwsplit.bench.Database;
import io.rwsplit.bench.Replication;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * The replicated workload: concurrent simulated users against the scripts/cluster.sh cluster, each doing
 * 80% reads and 20% writes, each operation in a new {@code EntityManager} (a new request). A write
 * increments the user's own row; half of the reads read that row back and count as stale when they see
 * an older counter than the user last committed (read-after-write); the other half read a random row.
 * <p>
 * Usage: {@code WorkloadRunner --port 3307 --users 8 --seconds 15 --warmup 3 --lag none
 * --modes PRIMARY_ONLY,EVENTUAL,... --out results.tsv}. The injected lag is applied by the caller
 * (scripts/bench.sh runs {@code cluster.sh delay}); {@code --lag} only labels the rows. One TSV row per
 * mode is appended to {@code --out}.
 */
public final class WorkloadRunner {

    static final String HEADER = String.join("\t", "lag", "mode", "settings", "users", "seconds", "ops", "ops_per_s",
            "read_p50_us", "read_p99_us", "write_p50_us", "write_p99_us", "reads", "replica_reads",
            "checked_reads", "stale_reads", "errors", "status", "read_after_write_p99_us");

    private static final int WRITE_PERCENT = 20;

    private final Database db;
    private final int users;
    private final int seconds;
    private final int warmupSeconds;
    /** Settings added to every routed mode ({@code --extra key=value,...}), e.g. {@code max_lag=0} under injected lag. */
    private final Map<String, String> extra = new LinkedHashMap<>();

    private WorkloadRunner(Database db, int users, int seconds, int warmupSeconds) {
        this.db = db;
        this.users = users;
        this.seconds = seconds;
        this.warmupSeconds = warmupSeconds;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int port = Integer.parseInt(options.getOrDefault("port", "3307"));
        int users = Integer.parseInt(options.getOrDefault("users", "8"));
        if (users < 1 || users >= Schema.ROWS / 2) {
            throw new IllegalArgumentException("--users must be between 1 and " + (Schema.ROWS / 2 - 1) + ": " + users);
        }
        WorkloadRunner runner = new WorkloadRunner(Database.cluster(port, 2), users,
                Integer.parseInt(options.getOrDefault("seconds", "15")),
                Integer.parseInt(options.getOrDefault("warmup", "3")));
        String lag = options.getOrDefault("lag", "none");
        for (String pair : options.getOrDefault("extra", "").split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                runner.extra.put("hibernate.rwsplit." + pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        Path out = Path.of(options.getOrDefault("out", "workload.tsv"));
        if (!Files.exists(out)) {
            Files.writeString(out, HEADER + "\n", StandardCharsets.UTF_8);
        }
        Schema.recreate(runner.db.primaryUrl(), runner.db.user(), runner.db.password(), true);
        for (String name : options.getOrDefault("modes", "PRIMARY_ONLY,UNIT_DEFAULT,RWSPLIT_DEFAULT,EVENTUAL,READ_YOUR_WRITES_TIME,READ_YOUR_WRITES_GTID").split(",")) {
            Mode mode = Mode.valueOf(name.trim());
            String row = runner.run(mode, lag);
            System.out.println(row);
            Files.writeString(out, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
    }

    private static Map<String, String> options(String[] args) {
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
        Map<String, String> settings = new LinkedHashMap<>(mode.settings);
        StringBuilder described = new StringBuilder(mode.describe());
        if (mode.variant == Variant.RWSPLIT) {
            settings.putAll(extra);
            extra.forEach((k, v) -> described.append(", ").append(k.substring("hibernate.rwsplit.".length())).append('=').append(v));
        }
        String prefix = String.join("\t", lag, mode.name(), described, String.valueOf(users), String.valueOf(seconds));
        resetCounters();
        Stack stack;
        try {
            stack = Stack.open(mode.variant, db, settings);
        }
        catch (RuntimeException e) {
            return prefix + "\t" + "\t".repeat(11) + "failed: " + firstClause(rootMessage(e)) + "\t";
        }
        try {
            return prefix + "\t" + measure(stack.factory(), mode.variant == Variant.RWSPLIT, mode.namesScope);
        }
        finally {
            stack.close();
        }
    }

    private String measure(EntityManagerFactory factory, boolean routed, boolean namesScope) throws InterruptedException {
        List<User> all = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            all.add(new User(i + 1, factory, routed, routed && namesScope));
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
                String.valueOf(errors), firstError == null ? "ok" : "ok, first error: " + firstError,
                String.valueOf(readsAfterWrite.quantileMicros(0.99)));
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
        final EntityManagerFactory factory;
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

        User(long ownId, EntityManagerFactory factory, boolean routed, boolean namesScope) {
            this.ownId = ownId;
            this.factory = factory;
            this.routed = routed;
            this.namesScope = namesScope;
            this.scopeKey = "user-" + ownId;
        }

        void run(long measureFrom, long end) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                boolean measured = now >= measureFrom;
                try {
                    if (random.nextInt(100) < WRITE_PERCENT) {
                        write();
                        if (measured) {
                            writeLatencies.add(System.nanoTime() - now);
                        }
                    }
                    else {
                        boolean own = random.nextBoolean();
                        long id = own ? ownId : users + 1 + random.nextInt(Schema.ROWS - users);
                        read(id, own, measured);
                        if (measured) {
                            long took = System.nanoTime() - now;
                            readLatencies.add(took);
                            if (own) {
                                readAfterWriteLatencies.add(took);
                            }
                        }
                    }
                }
                catch (RuntimeException e) {
                    errors++;
                    if (firstError == null) {
                        firstError = rootMessage(e);
                    }
                }
            }
        }

        private EntityManager open() {
            EntityManager em = factory.createEntityManager();
            if (namesScope) {
                RwSplit.scope(em, scopeKey);
            }
            return em;
        }

        private void write() {
            EntityManager em = open();
            try {
                em.getTransaction().begin();
                BenchItem item = em.find(BenchItem.class, ownId);
                item.setCounter(lastWritten + 1);
                em.getTransaction().commit();
                lastWritten++;
            }
            finally {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                em.close();
            }
        }

        private void read(long id, boolean own, boolean measured) {
            EntityManager em = open();
            try {
                BenchItem item = em.find(BenchItem.class, id);
                if (!measured) {
                    return;
                }
                if (routed && RwSplit.statistics(em).replicaStatements() > 0) {
                    replicaReads++;
                }
                if (own) {
                    checkedReads++;
                    if (item.getCounter() < lastWritten) {
                        staleReads++;
                    }
                }
            }
            finally {
                em.close();
            }
        }
    }
}
