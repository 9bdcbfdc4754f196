package io.rwsplit.bench.workload;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import io.rwsplit.bench.Database;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.TsvRows;

/**
 * What moving the reads to the replicas costs on this machine without Hibernate and without hibernate-rwsplit:
 * the write-readback-9 pattern in raw JDBC. Each of {@code --threads} threads repeats: increment its
 * own row in a transaction on the primary (select, update, commit, the statements a find and a flush send), read it
 * back, then read 9 random rows ({@code select id, counter, name from bench_item where id = ?}, one prepared statement
 * per connection, autocommit), the reads on the run's target: {@code primary} (where plain Hibernate reads),
 * {@code replica1} (the first replica alone), {@code replicas} (thread {@code i} on replica {@code i mod n}, each
 * thread always on the same one) or {@code alternate} (each thread's reads on the replicas in turn, one connection to
 * each, as a round-robin balancer spreads the reads of successive sessions). A round runs the four for
 * {@code --seconds} each, the one that goes first rotating from round to round. The spread targets' throughput over
 * the primary's is what moving the reads costs the servers and the driver where they share the machine's cores, apart
 * from Hibernate and from any router; the replica alone shows whether the cost is the replica's or the spreading's.
 * Nothing here waits for replication: a read-back may be stale, which this runner does not check. One TSV row per run
 * is appended to {@code --out}.
 * <p>
 * Usage: {@code SpreadCeiling --database mariadb|postgres --port 3307 --threads 8 --seconds 8 --rounds 3 --out ceiling.tsv}
 */
public final class SpreadCeiling {

    static final String HEADER = String.join("\t", "database", "round", "target", "threads", "seconds", "ops", "ops_per_s",
            "client_cpu_us_per_op", "primary_cpu_us_per_op", "replicas_cpu_us_per_op", "cores_busy");

    static final String READ = "select id, counter, name from bench_item where id = ?";
    static final String INCREMENT = "update bench_item set counter = ? where id = ?";
    /** Random reads after each read-back, as in {@code write-readback-9}. */
    static final int RANDOM_READS = 9;

    private SpreadCeiling() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = WorkloadRunner.options(args);
        boolean postgres = "postgres".equals(options.getOrDefault("database", "mariadb"));
        int port = Integer.parseInt(options.getOrDefault("port", postgres ? "5441" : "3307"));
        int threads = positive(options, "threads", "8");
        int seconds = positive(options, "seconds", "8");
        int rounds = positive(options, "rounds", "3");
        Path out = Path.of(options.getOrDefault("out", "ceiling.tsv"));
        Database db = postgres ? Database.postgresCluster(port, 2) : Database.cluster(port, 2);
        Map<String, List<String>> targets = new LinkedHashMap<>();
        targets.put("primary", List.of(db.primaryUrl()));
        targets.put("replica1", List.of(db.replicaUrls().get(0)));
        targets.put("replicas", db.replicaUrls());
        targets.put("alternate", db.replicaUrls());
        List<String> names = new ArrayList<>(targets.keySet());
        List<String> servers = new ArrayList<>();
        servers.add(db.primaryUrl());
        servers.addAll(db.replicaUrls());
        ServerCpu cpu = ServerCpu.open(servers, db.user(), db.password(), db.mariadb());
        // unrecorded, so that the JIT has compiled the client before the first recorded run
        measure(db, targets.get("primary"), threads, Math.max(2, seconds / 2), false, null, new ServerCpu.Sample[2],
                new long[2]);
        for (int round = 1; round <= rounds; round++) {
            List<String> rows = new ArrayList<>();
            for (int k = 0; k < names.size(); k++) {
                String target = names.get((round - 1 + k) % names.size());
                ServerCpu.Sample[] used = new ServerCpu.Sample[2];
                long[] window = new long[2];
                long ops = measure(db, targets.get(target), threads, seconds, target.equals("alternate"), cpu, used,
                        window);
                String row = String.join("\t", postgres ? "postgres" : "mariadb", String.valueOf(round), target,
                        String.valueOf(threads), String.valueOf(seconds), String.valueOf(ops),
                        String.format(Locale.ROOT, "%.1f", ops / (double) seconds),
                        WorkloadRunner.cpuColumns(used[0], used[1], ops, (window[1] - window[0]) / 1e9));
                System.out.println(row);
                rows.add(row);
            }
            TsvRows.append(out, HEADER, rows);
        }
    }

    /**
     * The pattern by {@code threads} threads, thread {@code i} writing row {@code i + 1} on the primary and reading on
     * {@code urls[i mod n]} (the primary's own connection when {@code urls} is the primary), or, when
     * {@code alternate}, on {@code urls[i mod n]} and {@code urls[(i + 1) mod n]} in turn, for {@code seconds}; how
     * many operations (writes and reads). With {@code cpu}, {@code used} gets the CPU samples taken when the threads
     * start and when they have all stopped, and {@code window} the {@code System.nanoTime()} of both.
     */
    static long measure(Database db, List<String> urls, int threads, int seconds, boolean alternate, ServerCpu cpu,
                        ServerCpu.Sample[] used, long[] window) throws Exception {
        boolean onPrimary = urls.equals(List.of(db.primaryUrl()));
        int per = alternate ? 3 : 2;   // each thread's connections: the primary, the read's, the other replica's
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                connections.add(DriverManager.getConnection(db.primaryUrl(), db.user(), db.password()));
                connections.add(onPrimary ? connections.get(per * i)
                        : DriverManager.getConnection(urls.get(i % urls.size()), db.user(), db.password()));
                if (alternate) {
                    connections.add(DriverManager.getConnection(urls.get((i + 1) % urls.size()), db.user(), db.password()));
                }
            }
            long[] counts = new long[threads];
            AtomicReference<Throwable> failed = new AtomicReference<>();
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> running = new ArrayList<>();
            long[] end = new long[1];
            for (int i = 0; i < threads; i++) {
                int t = i;
                Connection primary = connections.get(per * t);
                Thread thread = new Thread(() -> {
                    boolean counted = false;
                    try (PreparedStatement write = primary.prepareStatement(READ);
                         PreparedStatement increment = primary.prepareStatement(INCREMENT);
                         PreparedStatement read = connections.get(per * t + 1).prepareStatement(READ);
                         PreparedStatement other = alternate ? connections.get(per * t + 2).prepareStatement(READ) : read) {
                        ready.countDown();
                        counted = true;
                        go.await();
                        long own = t + 1;
                        long n = 0;
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        while (System.nanoTime() < end[0]) {
                            primary.setAutoCommit(false);
                            write.setLong(1, own);
                            long counter = readOne(write);
                            increment.setLong(1, counter + 1);
                            increment.setLong(2, own);
                            increment.executeUpdate();
                            primary.commit();
                            primary.setAutoCommit(true);
                            read.setLong(1, own);
                            readOne(read);
                            for (int k = 0; k < RANDOM_READS; k++) {
                                PreparedStatement next = (k & 1) == 0 ? other : read;
                                next.setLong(1, 1 + random.nextInt(Schema.ROWS));
                                readOne(next);
                            }
                            n += 2 + RANDOM_READS;
                        }
                        counts[t] = n;
                    }
                    catch (Throwable e) {
                        failed.compareAndSet(null, e);
                        if (!counted) {
                            ready.countDown();
                        }
                    }
                }, "reader-" + i);
                running.add(thread);
                thread.start();
            }
            ready.await();
            used[0] = cpu == null ? null : cpu.sample();
            window[0] = System.nanoTime();
            end[0] = window[0] + seconds * 1_000_000_000L;
            go.countDown();   // publishes end[0] to the threads
            for (Thread thread : running) {
                thread.join();
            }
            used[1] = cpu == null ? null : cpu.sample();
            window[1] = System.nanoTime();
            if (failed.get() != null) {
                throw new IllegalStateException("the pattern with reads on " + urls + " failed: " + failed.get(), failed.get());
            }
            long total = 0;
            for (long count : counts) {
                total += count;
            }
            return total;
        }
        finally {
            for (Connection c : connections) {
                try {
                    c.close();
                }
                catch (SQLException ignored) {
                    // closing a benchmark connection (the primary's twice when it also reads)
                }
            }
        }
    }

    /** The counter of the one row {@code select} reads. */
    private static long readOne(PreparedStatement select) throws SQLException {
        try (ResultSet rs = select.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException("no row read: is the table seeded and replicated?");
            }
            return rs.getLong(2);
        }
    }

    private static int positive(Map<String, String> options, String name, String fallback) {
        String text = options.getOrDefault(name, fallback);
        int value;
        try {
            value = Integer.parseInt(text);
        }
        catch (NumberFormatException e) {
            value = 0;
        }
        if (value < 1) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, 1 or more: '" + text + "'");
        }
        return value;
    }
}
