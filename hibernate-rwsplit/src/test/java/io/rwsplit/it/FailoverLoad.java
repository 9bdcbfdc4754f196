package io.rwsplit.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

/**
 * The failover load: {@value #USERS} users, each in a loop writes its row in a transaction (a {@code find}, a
 * new number, and one {@link FailoverEntry} per write) and reads the row back in a new {@code EntityManager}
 * outside a transaction. Records every write and read with the time it ended, the server that answered a
 * read and every failure, so that a test can tell failed reads, stale reads (a read older than the user's
 * last committed write, when that write still exists after the failover), writes lost by asynchronous
 * replication, and a {@code find} that found no row in a write transaction although the row exists.
 */
final class FailoverLoad implements AutoCloseable {

    static final int USERS = 8;
    private static final long ID_STRIDE = 1_000_000L;

    private record Event(long endNanos, boolean ok, int port) {
    }

    /** A read that returned less than the user's last committed write: stale, unless that write was lost. */
    private record Suspect(long user, long expected, long seen) {
    }

    private final EntityManagerFactory emf;
    private final Class<? extends FailoverRow> type;
    private final Supplier<? extends FailoverRow> newRow;
    /** {@code select <server port>, <is a replica>, count(*) from failover_row}, completed with a where clause. */
    private final String serverQuery;
    private final ConcurrentLinkedQueue<Event> writes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Event> reads = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Suspect> suspects = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicInteger emptyFinds = new AtomicInteger();
    /** Reads that failed with a LostWriteException: they required a write the failover lost, and said so. */
    private final AtomicInteger reportedLost = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean();
    private ExecutorService users;
    private volatile long startedAt;
    private volatile long killedAt;
    private volatile long promotedAt;
    private volatile long killDoneAt;
    private int stale = -1;
    private volatile boolean settled;
    private int lost = -1;
    private long lostWriteFailoversReported = -1;

    FailoverLoad(EntityManagerFactory emf, Class<? extends FailoverRow> type, Supplier<? extends FailoverRow> newRow,
                 String serverQuery) {
        this.serverQuery = serverQuery;
        this.emf = emf;
        this.type = type;
        this.newRow = newRow;
    }

    /** Creates the users' rows and starts the users. */
    FailoverLoad start() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            for (long user = 1; user <= USERS; user++) {
                FailoverRow row = newRow.get();
                row.id = user;
                em.persist(row);
            }
            em.getTransaction().commit();
        }
        startedAt = System.nanoTime();
        running.set(true);
        users = Executors.newFixedThreadPool(USERS);
        for (long user = 1; user <= USERS; user++) {
            long id = user;
            users.submit(() -> user(id));
        }
        return this;
    }

    private void user(long id) {
        long seq = 0;
        long confirmed = 0;
        while (running.get()) {
            seq++;
            if (write(id, seq)) {
                confirmed = seq;
            }
            read(id, confirmed);
            try {
                Thread.sleep(2);
            }
            catch (InterruptedException e) {
                return;
            }
        }
    }

    private boolean write(long id, long seq) {
        EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            FailoverRow row = em.find(type, id);
            if (row == null) {
                emptyFinds.incrementAndGet();
                error("write transaction: find(" + id + ") returned no row, although it exists, "
                        + when() + "; then: " + probe(em, id));
                em.getTransaction().rollback();
                writes.add(new Event(System.nanoTime(), false, -1));
                return false;
            }
            row.written = seq;
            em.persist(new FailoverEntry(id * ID_STRIDE + seq));
            em.getTransaction().commit();
            writes.add(new Event(System.nanoTime(), true, -1));
            return true;
        }
        catch (RuntimeException e) {
            writes.add(new Event(System.nanoTime(), false, -1));
            try {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
            }
            catch (RuntimeException ignored) {
                // the connection is gone
            }
            return false;
        }
        finally {
            em.close();
        }
    }

    private void read(long id, long confirmed) {
        try (EntityManager em = emf.createEntityManager()) {
            FailoverRow row = em.find(type, id);
            long seen = row == null ? -1 : row.written;
            if (seen < confirmed) {
                suspects.add(new Suspect(id, confirmed, seen));
            }
            reads.add(new Event(System.nanoTime(), true, row == null ? -1 : row.servedBy()));
        }
        catch (RuntimeException e) {
            if (lostWrite(e)) {
                reportedLost.incrementAndGet();   // the module says the write it needs is gone: not a failed read
                return;
            }
            reads.add(new Event(System.nanoTime(), false, -1));
            error("read, " + when() + ": " + describe(e));
        }
    }

    private static boolean lostWrite(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.rwsplit.LostWriteException) {
                return true;
            }
        }
        return false;
    }

    /** Reads that failed because the write they required was lost in the failover, as the module reported it. */
    int reportedLostWrites() {
        return reportedLost.get();
    }

    /** What the write transaction's connection says right after an empty find: the server, and the row count. */
    private String probe(EntityManager em, long id) {
        try {
            return String.valueOf(em.createNativeQuery(serverQuery + " where id = " + id).getResultList().stream()
                    .map(r -> java.util.Arrays.toString((Object[]) r)).toList());
        }
        catch (RuntimeException e) {
            return describe(e);
        }
    }

    /** When something happened: in the test's phases (an error message says it, to tell a start-up race from the kill's). */
    private String when() {
        long now = System.nanoTime();
        long killed = killedAt;
        long promoted = promotedAt;
        if (killed == 0) {
            return (now - startedAt) / 1_000_000 + " ms after the start, before the kill";
        }
        return promoted == 0 ? (now - killed) / 1_000_000 + " ms after the kill"
                : (now - promoted) / 1_000_000 + " ms after the promotion";
    }

    private void error(String message) {
        if (errors.size() < 20) {
            errors.add(message);
        }
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null && text.length() < 400; t = t.getCause()) {
            text.append(text.length() == 0 ? "" : " <- ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
            if (t.getCause() == t) {
                break;
            }
        }
        return text.toString();
    }

    // ------------------------------------------------------------------ the failover's moments

    void killed() {
        killedAt = System.nanoTime();
    }

    /** The kill script returned: the old primary is gone. */
    void killDone() {
        killDoneAt = System.nanoTime();
    }

    void promoted() {
        promotedAt = System.nanoTime();
    }

    /** Waits until each user has read at least {@code reads} times (the load runs). */
    void awaitReads(int perUser, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (countOk(reads, 0, Long.MAX_VALUE, -1) < (long) perUser * USERS) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the load did not run: " + summary());
            }
            Thread.sleep(20);
        }
    }

    /** Waits, for at most {@code bound}, until reads ended after the promotion were served by the server on {@code port}. */
    void awaitReadsServedBy(int port, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            if (countOk(reads, promotedAt, Long.MAX_VALUE, port) > 0) {
                settled = true;
                return;
            }
            Thread.sleep(50);
        }
    }

    /** Whether reads after the promotion were served by the server {@link #awaitReadsServedBy} waited for. */
    boolean settled() {
        return settled;
    }

    /** Keeps the load running until {@code delay} after the promotion. */
    void runUntilAfterPromotion(Duration delay) throws InterruptedException {
        long until = promotedAt + delay.toNanos();
        long left;
        while ((left = until - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    /**
     * Stops the users and classifies the suspect reads on the new primary: stale when the write they missed
     * exists there, lost (by asynchronous replication) when it does not.
     */
    void stop(Connection newPrimary) throws InterruptedException, SQLException {
        running.set(false);
        users.shutdown();
        if (!users.awaitTermination(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the users did not stop");
        }
        int staleReads = 0;
        int lostWrites = 0;
        try (PreparedStatement exists = newPrimary.prepareStatement("select count(*) from failover_entry where id = ?")) {
            for (Suspect s : suspects) {
                exists.setLong(1, s.user * ID_STRIDE + s.expected);
                try (ResultSet rs = exists.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) == 1) {
                        staleReads++;
                        error("stale read: user " + s.user + " read write " + s.seen + " after write " + s.expected + " committed");
                    }
                    else {
                        lostWrites++;
                    }
                }
            }
        }
        stale = staleReads;
        lost = lostWrites;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        if (users != null) {
            users.shutdownNow();
            users.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    // ------------------------------------------------------------------ figures

    long failedReads() {
        return reads.stream().filter(e -> !e.ok).count();
    }

    /** Failed writes from the kill on (a write transaction that found no row counts as failed). */
    long failedWrites() {
        return writes.stream().filter(e -> !e.ok && e.endNanos >= killedAt).count();
    }

    int staleReads() {
        return stale;
    }

    int lostWrites() {
        return lost;
    }

    /** What the module's statistics counted as failovers that lost writes (-1: not asked, plain Hibernate). */
    long lostWriteFailoversReported() {
        return lostWriteFailoversReported;
    }

    void lostWriteFailoversReported(long count) {
        lostWriteFailoversReported = count;
    }

    int emptyFinds() {
        return emptyFinds.get();
    }

    /** The longest time without a successful write, from the last one before the kill on. */
    Duration writeOutage() {
        long[] ok = writes.stream().filter(e -> e.ok).mapToLong(e -> e.endNanos).sorted().toArray();
        long longest = 0;
        for (int i = 1; i < ok.length; i++) {
            if (ok[i] > killedAt) {
                longest = Math.max(longest, ok[i] - ok[i - 1]);
            }
        }
        return Duration.ofNanos(longest);
    }

    /** From the end of the promotion (the new primary takes writes) to the first successful write after it. */
    Duration writeOutageAfterPromotion() {
        return Duration.ofNanos(writes.stream().filter(e -> e.ok && e.endNanos > promotedAt)
                .mapToLong(e -> e.endNanos - promotedAt).min().orElse(-1));
    }

    Duration promotionTook() {
        return Duration.ofNanos(promotedAt - killedAt);
    }

    /** Share of the reads that ended in the second starting {@code after} the promotion that the server on {@code port} served. */
    String shareAfterPromotion(Duration after, int port) {
        long from = promotedAt + after.toNanos();
        long to = from + TimeUnit.SECONDS.toNanos(1);
        return countOk(reads, from, to, port) + " of " + countOk(reads, from, to, -1);
    }

    private static long countOk(ConcurrentLinkedQueue<Event> events, long from, long to, int port) {
        long n = 0;
        for (Event e : events) {
            if (e.ok && e.endNanos >= from && e.endNanos < to && (port == -1 || e.port == port)) {
                n++;
            }
        }
        return n;
    }

    List<String> errors() {
        return new ArrayList<>(errors);
    }

    String summary() {
        return String.format(Locale.ROOT, "writes %d (failed after the kill %d), reads %d (failed %d), stale %d,"
                        + " lost writes %d (lost-write failovers reported %d, reads that reported one %d),"
                        + " empty finds in write transactions %d, write outage %d ms (kill script %d ms, promote script %d ms,"
                        + " first write %d ms after the promotion); errors %s",
                writes.size(), failedWrites(), reads.size(), failedReads(), stale, lost, lostWriteFailoversReported,
                reportedLost.get(), emptyFinds.get(),
                writeOutage().toMillis(), (killDoneAt - killedAt) / 1_000_000, (promotedAt - killDoneAt) / 1_000_000,
                writeOutageAfterPromotion().toMillis(), errors);
    }
}
