package io.rwsplit.demo.embedded;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DEMO ONLY - a replication simulator for H2, which has no replication. It is not part of
 * hibernate-rwsplit and never will be: it exists so that the demo can show stale reads without a
 * database server.
 * <p>
 * Semantics: every replica shows the primary's committed state as it was {@code delay} ago (give or
 * take one tick). Each tick the simulator reads the given tables from the primary; when they changed,
 * it queues that snapshot with its capture time. Once a snapshot is {@code delay} old it is applied to
 * every replica in one transaction per replica (delete and re-insert the rows), so readers of a replica
 * see either the old state or the new one, never a mix. Full-table copies are fine for the demo's few
 * hundred rows; this is a simulator, not a replication engine.
 */
public final class ReplicationSimulator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicationSimulator.class);
    private static final long TICK_MILLIS = 10;

    private final Supplier<Connection> primary;
    private final List<Supplier<Connection>> replicas;
    private final List<String> tables;
    private final long delayNanos;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;

    private record Snapshot(long capturedAtNanos, Map<String, List<List<Object>>> rows) {
    }

    /**
     * @param primary  opens a connection to the primary
     * @param replicas open connections to the replicas
     * @param tables   the tables to copy (no foreign keys between them)
     * @param delay    how far each replica lags behind the primary
     */
    private volatile java.util.function.LongConsumer appliedListener = capturedAt -> { };

    public ReplicationSimulator(Supplier<Connection> primary, List<Supplier<Connection>> replicas,
                                List<String> tables, Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("replication delay must not be negative: " + delay);
        }
        this.primary = primary;
        this.replicas = List.copyOf(replicas);
        this.tables = List.copyOf(tables);
        this.delayNanos = delay.toNanos();
        this.thread = new Thread(this::loop, "replication-simulator");
        this.thread.setDaemon(true);
    }

    /**
     * Calls {@code listener} on the simulator's thread each time a snapshot has been applied to every
     * replica, with the {@link System#nanoTime()} at which it had been captured from the primary.
     * Set before {@link #start()}.
     */
    public ReplicationSimulator onApplied(java.util.function.LongConsumer listener) {
        this.appliedListener = listener;
        return this;
    }

    public ReplicationSimulator start() {
        thread.start();
        return this;
    }

    private void loop() {
        Deque<Snapshot> queue = new ArrayDeque<>();
        Map<String, List<List<Object>>> lastCaptured = null;
        List<Connection> replicaConnections = new ArrayList<>();
        try (Connection source = primary.get()) {
            for (Supplier<Connection> replica : replicas) {
                Connection c = replica.get();
                c.setAutoCommit(false);
                replicaConnections.add(c);
            }
            while (running) {
                Map<String, List<List<Object>>> rows = capture(source);
                if (!rows.equals(lastCaptured)) {
                    queue.addLast(new Snapshot(System.nanoTime(), rows));
                    lastCaptured = rows;
                }
                Snapshot due = null;
                while (!queue.isEmpty() && System.nanoTime() - queue.peekFirst().capturedAtNanos() >= delayNanos) {
                    due = queue.pollFirst();
                }
                if (due != null) {
                    for (Connection replica : replicaConnections) {
                        apply(due, replica);
                    }
                    appliedListener.accept(due.capturedAtNanos());
                }
                Thread.sleep(TICK_MILLIS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (SQLException | RuntimeException e) {
            if (running) {
                log.error("replication simulator stopped: {}", e.toString(), e);
            }
        }
        finally {
            for (Connection c : replicaConnections) {
                try {
                    c.close();
                }
                catch (SQLException ignored) {
                    // the database is going away with the demo
                }
            }
            stopped.countDown();
        }
    }

    private Map<String, List<List<Object>>> capture(Connection source) throws SQLException {
        Map<String, List<List<Object>>> snapshot = new LinkedHashMap<>();
        try (Statement s = source.createStatement()) {
            for (String table : tables) {
                List<List<Object>> rows = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("select * from " + table)) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        List<Object> row = new ArrayList<>(columns);
                        for (int i = 1; i <= columns; i++) {
                            row.add(rs.getObject(i));
                        }
                        rows.add(row);
                    }
                }
                snapshot.put(table, Collections.unmodifiableList(rows));
            }
        }
        return snapshot;
    }

    private static void apply(Snapshot snapshot, Connection replica) throws SQLException {
        try (Statement s = replica.createStatement()) {
            for (var table : snapshot.rows().entrySet()) {
                s.executeUpdate("delete from " + table.getKey());
                if (table.getValue().isEmpty()) {
                    continue;
                }
                int columns = table.getValue().get(0).size();
                String insert = "insert into " + table.getKey() + " values (" + "?, ".repeat(columns - 1) + "?)";
                try (PreparedStatement ps = replica.prepareStatement(insert)) {
                    for (List<Object> row : table.getValue()) {
                        for (int i = 0; i < columns; i++) {
                            ps.setObject(i + 1, row.get(i));
                        }
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            replica.commit();
        }
        catch (SQLException e) {
            replica.rollback();
            throw e;
        }
    }

    /** Stops copying and waits for the simulator's thread to finish. */
    @Override
    public void close() {
        running = false;
        if (thread.getState() == Thread.State.NEW) {
            return;
        }
        try {
            stopped.await();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
