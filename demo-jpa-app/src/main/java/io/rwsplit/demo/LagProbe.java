package io.rwsplit.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures replica lag the way a user notices it: commit a heartbeat on the primary, then time how
 * long it takes until every replica shows it. Plain JDBC, so it shows in no routing statistics.
 */
final class LagProbe {

    private static final long POLL_MILLIS = 5;

    private final Database primary;
    private final List<Database> replicas;
    private final AtomicLong beats = new AtomicLong(System.currentTimeMillis());

    LagProbe(Database primary, List<Database> replicas) {
        this.primary = primary;
        this.replicas = replicas;
    }

    /** Lag statistics of one run. */
    record Lag(int samples, Duration average, Duration max) {
        @Override
        public String toString() {
            return samples == 0 ? "n/a" : "avg " + average.toMillis() + " ms, max " + max.toMillis() + " ms";
        }
    }

    /** Creates the heartbeat row; run once after the schema was created. */
    void install() throws SQLException {
        try (Connection c = primary.connect();
             PreparedStatement ps = c.prepareStatement("insert into demo_heartbeat (id, beat) values (1, ?)")) {
            ps.setLong(1, beats.incrementAndGet());
            ps.executeUpdate();
        }
    }

    /** One heartbeat: the time until every replica showed it; fails when that takes longer than {@code timeout}. */
    Duration measure(Duration timeout) throws SQLException, InterruptedException {
        long beat = beats.incrementAndGet();
        try (Connection c = primary.connect();
             PreparedStatement ps = c.prepareStatement("update demo_heartbeat set beat = ? where id = 1")) {
            ps.setLong(1, beat);
            ps.executeUpdate();
        }
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        for (Database replica : replicas) {
            try (Connection c = replica.connect();
                 PreparedStatement ps = c.prepareStatement("select beat from demo_heartbeat where id = 1")) {
                while (!shows(ps, beat)) {
                    if (System.nanoTime() > deadline) {
                        throw new SQLException(replica.name() + " did not show a write on the primary within "
                                + timeout.toSeconds() + " s: is replication running?");
                    }
                    Thread.sleep(POLL_MILLIS);
                }
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static boolean shows(PreparedStatement ps, long beat) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getLong(1) >= beat;
        }
        catch (SQLSyntaxErrorException e) {
            return false; // the replica has not applied the CREATE TABLE yet
        }
        catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return false; // the same on PostgreSQL, whose driver reports it as a plain SQLException
            }
            throw e;
        }
    }

    /** Measures continuously in a background thread until {@link Sampler#stop()}. */
    Sampler sample(Duration timeout) {
        Sampler sampler = new Sampler(timeout);
        sampler.thread.start();
        return sampler;
    }

    final class Sampler {
        private final List<Duration> samples = new ArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;
        private volatile Exception failure;

        private Sampler(Duration timeout) {
            thread = new Thread(() -> {
                try {
                    while (running) {
                        Duration lag = measure(timeout);
                        synchronized (samples) {
                            samples.add(lag);
                        }
                    }
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                catch (SQLException e) {
                    failure = e;
                }
            }, "lag-probe");
            thread.setDaemon(true);
        }

        /** Stops after the current measurement and returns what was measured; later calls return the same. */
        Lag stop() throws InterruptedException {
            running = false;
            thread.join();
            if (failure != null) {
                throw new IllegalStateException("lag probe failed: " + failure.getMessage(), failure);
            }
            synchronized (samples) {
                Duration max = samples.stream().max(Duration::compareTo).orElse(Duration.ZERO);
                Duration sum = samples.stream().reduce(Duration.ZERO, Duration::plus);
                return new Lag(samples.size(), samples.isEmpty() ? Duration.ZERO : sum.dividedBy(samples.size()), max);
            }
        }
    }
}
