package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;
import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * PostgreSQL under write load, with the module's defaults only (read-your-writes of the whole unit): 8 users each
 * write their own row in one {@code EntityManager} and read it back in a new one, concurrently. No read-back is stale,
 * and the standbys serve most of them (the share is printed; the assertion is a generous floor, the figures belong on
 * the benchmark page): a standby replays a small commit within a millisecond here, so a read that waits for it by
 * position costs less than it saves.
 */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresWriteThenReadIT {

    static final int USERS = 8;
    static final int PAIRS = 150;

    private final TestCluster cluster;
    private EntityManagerFactory emf;
    private ExecutorService threads;
    /** Replica pools a test made itself, closed after the factory. */
    private final List<com.zaxxer.hikari.HikariDataSource> pools = new ArrayList<>();

    PostgresWriteThenReadIT(PostgresCluster cluster) {
        this.cluster = cluster;
    }

    @AfterEach
    void close() throws InterruptedException {
        if (threads != null) {
            threads.shutdownNow();
            threads.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (emf != null) {
            emf.close();
        }
        pools.forEach(com.zaxxer.hikari.HikariDataSource::close);
    }

    @Test
    void eightConcurrentUsersReadTheirOwnWritesFromTheStandbysAndNeverStale() throws Exception {
        profiles();
        emf = routingFactory();
        awaitStandbysUp();
        long start = System.nanoTime();
        Load load = writeThenRead(PAIRS, em -> { });
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        Map<String, Long> reasons = new TreeMap<>(RwSplit.statistics(emf).byReason());
        System.out.printf("[pg-write-then-read-it] %d users x %d write-then-read pairs in %d ms: %d stale, %d of %d"
                + " read-backs on a standby (%.0f %%); reasons %s%n", USERS, PAIRS, millis, load.stale().size(),
                load.onStandby(), load.readBacks(), 100.0 * load.onStandby() / load.readBacks(), reasons);

        assertEquals(List.of(), load.firstStale(), "no read-back is stale");
        assertTrue(load.onStandby() * 2 > load.readBacks(), "most read-backs on a standby: " + load.onStandby() + " of "
                + load.readBacks() + ", reasons " + reasons);
    }

    /** What {@link #writeThenRead} saw: the stale read-backs, how many ran on a standby, of how many. */
    private record Load(List<String> stale, long onStandby, long readBacks) {
        List<String> firstStale() {
            return stale.subList(0, Math.min(10, stale.size()));
        }
    }

    /** The table {@code profile} with a row per user, on every standby. */
    private void profiles() throws Exception {
        cluster.update(TestCluster.PRIMARY, "create table profile (id bigint primary key, bio varchar(100))");
        for (int user = 1; user <= USERS; user++) {
            cluster.update(TestCluster.PRIMARY, "insert into profile values (" + user + ", '0')");
        }
        cluster.sync();
    }

    private void awaitStandbysUp() throws Exception {
        HealthContract.awaitMillis(java.time.Duration.ofSeconds(10), () -> RwSplit.health(emf).replicas().stream()
                .allMatch(s -> s.observedAtNanos() != 0 && s.isUp()), "both standbys probed and UP");
    }

    /**
     * {@link #USERS} users at once, each {@code pairs} times: write its row in one {@code EntityManager} (in a
     * transaction that first runs {@code beforeWrite}) and read it back in a new one.
     */
    private Load writeThenRead(int pairs, java.util.function.Consumer<EntityManager> beforeWrite) throws Exception {
        threads = Executors.newFixedThreadPool(USERS);
        CountDownLatch go = new CountDownLatch(1);
        List<String> stale = Collections.synchronizedList(new ArrayList<>());
        AtomicLong onStandby = new AtomicLong();
        List<Future<?>> users = new ArrayList<>();
        for (int u = 1; u <= USERS; u++) {
            long id = u;
            users.add(threads.submit(() -> {
                go.await();
                for (int i = 1; i <= pairs; i++) {
                    String written = Integer.toString(i);
                    try (EntityManager em = emf.createEntityManager()) {
                        em.getTransaction().begin();
                        beforeWrite.accept(em);
                        em.find(Profile.class, id).bio = written;
                        em.getTransaction().commit();
                    }
                    READ_BACK.set(new boolean[1]);   // a read-back begins on this thread: nothing checked yet
                    try (EntityManager em = emf.createEntityManager()) {
                        String read = em.find(Profile.class, id).bio;
                        if (RwSplit.statistics(em).replicaStatements() > 0) {
                            onStandby.incrementAndGet();
                        }
                        if (!written.equals(read)) {
                            stale.add("user " + id + " read " + read + " after writing " + written);
                        }
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> user : users) {
            user.get(120, TimeUnit.SECONDS);
        }
        return new Load(stale, onStandby.get(), (long) USERS * pairs);
    }

    /**
     * Per user thread, during one read-back: whether a read with the check in its own message was prepared yet
     * (null on threads that are not users, such as the replica monitor's).
     */
    private static final ThreadLocal<boolean[]> READ_BACK = new ThreadLocal<>();

    /** What the standbys' DataSources saw: reads checked in their own message, questions asked apart. */
    private static final class Asks {
        final AtomicLong checked = new AtomicLong();
        /** Questions a read-back asked before any check of its own: what every such read-back did before. */
        final AtomicLong askedFirst = new AtomicLong();
        /** Questions a read-back asked after its check found the standby behind (the wait, polls included). */
        final AtomicLong askedAfterCheck = new AtomicLong();
    }

    /**
     * A read that must see a write its standby is not known to have yet asks the standby nothing apart: the question
     * what it replayed travels in the read's own message, and only a read whose check found the standby behind asks
     * and waits as before. Seen from the replicas' DataSources (as an application's pool would be), 8 users writing
     * and reading back: read-backs are checked in their own round trip, no read-back asks apart before its check, and
     * none is stale. Before, each of them asked first (one more round trip per read-back). How many checks find the
     * standby behind depends on the machine's load, so only the order is asserted, not a share.
     */
    @Test
    void aReadBackIsCheckedInItsOwnRoundTripAndAsksTheStandbyNothingApart() throws Exception {
        profiles();
        Asks asks = new Asks();
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("pg-checked-read-it")
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", String.join(",", cluster.replicas()))
                .property("hibernate.rwsplit.lag_probe", "lsn");
        for (String replica : cluster.replicas()) {
            org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
            ds.setURL(cluster.jdbcUrl(replica));
            ds.setUser(cluster.user());
            ds.setPassword(cluster.password());
            com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource();
            pool.setDataSource(counting(ds, asks));   // the application's own pool of the standby
            pool.setMaximumPoolSize(USERS);
            pools.add(pool);
            cfg.property("hibernate.rwsplit.replica." + replica + ".datasource", pool);
        }
        emf = cfg.createEntityManagerFactory();
        awaitStandbysUp();

        Load load = writeThenRead(100, em -> { });
        Map<String, Long> reasons = new TreeMap<>(RwSplit.statistics(emf).byReason());
        System.out.printf("[pg-write-then-read-it] %d read-backs: %d checked in their own round trip, %d questions asked"
                + " apart after a check, %d before one, %d stale; reasons %s%n", load.readBacks(), asks.checked.get(),
                asks.askedAfterCheck.get(), asks.askedFirst.get(), load.stale().size(), reasons);
        assertEquals(List.of(), load.firstStale(), "no read-back is stale");
        // a read-back its standby is known to have needs neither (CAUSAL_REPLICA_CAUGHT_UP); the others are checked
        assertTrue(asks.checked.get() > 0, "read-backs checked in their own round trip: none; reasons " + reasons);
        assertEquals(0, asks.askedFirst.get(), "questions a read-back asked its standby apart before checking in its"
                + " own round trip (" + asks.checked.get() + " checked); reasons " + reasons);
        // the factory's statistics count what the standbys' pools saw (and the reads before the load, unseen there)
        io.rwsplit.RoutingStatistics statistics = RwSplit.statistics(emf);
        System.out.printf("[pg-write-then-read-it] statistics: %d checked, %d failed checks, %d questions%n",
                statistics.checkedReplicaReads(), statistics.failedReplicaChecks(), statistics.replicaPositionQueries());
        assertTrue(statistics.checkedReplicaReads() >= asks.checked.get(), "checked reads counted: "
                + statistics.checkedReplicaReads() + ", seen by the standbys: " + asks.checked.get());
        assertTrue(statistics.failedReplicaChecks() <= statistics.checkedReplicaReads());
        assertTrue(statistics.replicaPositionQueries() >= asks.askedAfterCheck.get(), "questions counted: "
                + statistics.replicaPositionQueries() + ", seen by the standbys: " + asks.askedAfterCheck.get());
    }

    /**
     * A table created through the module (as a migration run on the unit's connections does), and a row committed in
     * it, that no standby has replayed yet: the first read of the row, checked in its own round trip on a standby whose
     * replay nobody knows yet (a trial), fails there ("relation does not exist") and the check's answer is lost with it.
     * The read is made sure of as after a failed check and runs again (here on the primary once its wait timed out, the
     * standbys paused): it answers the row, never the error. The monitor's next look is 30 s away, so nothing tells the
     * read beforehand that the standbys are behind.
     */
    @Test
    void theFirstReadOfATableNoStandbyHasReplayedYetIsAnsweredNotFailed() throws Exception {
        emf = routingFactory("", Map.of(io.rwsplit.RwSplitSettings.PROBE_INTERVAL, "30s"));
        awaitStandbysUp();
        cluster.pause(1);
        cluster.pause(2);
        doWork(c -> {
            try (java.sql.Statement s = c.createStatement()) {
                s.execute("create table profile (id bigint primary key, bio varchar(100))");
            }
        });
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            Profile profile = new Profile();
            profile.id = 1L;
            profile.bio = "new";
            em.persist(profile);
            em.getTransaction().commit();
        }
        try (io.rwsplit.testing.LogCapture logs = io.rwsplit.testing.LogCapture.attach("io.rwsplit.route",
                ch.qos.logback.classic.Level.DEBUG); EntityManager em = emf.createEntityManager()) {
            assertEquals("new", em.find(Profile.class, 1L).bio);
            assertTrue(logs.lines().stream().anyMatch(l -> l.contains("failed there (SQLState 42P01)")),
                    () -> "the read was not checked on a standby that lacked the table: " + logs.lines()
                            + "; reasons " + RwSplit.statistics(emf).byReason());
        }
        for (int standby = 1; standby <= 2; standby++) {
            assertEquals(0, cluster.queryInt(TestCluster.replica(standby),
                    "select count(*) from pg_class where relname = 'profile'"), "the standby had not replayed the table");
        }
    }

    /**
     * {@code ds}, whose connections count the reads prepared with the check in their own message and the questions
     * prepared apart, the latter by whether the user's read-back had been checked before.
     */
    private static javax.sql.DataSource counting(javax.sql.DataSource ds, Asks asks) {
        return (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(PostgresWriteThenReadIT.class.getClassLoader(),
                new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(ds, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    java.sql.Connection c = (java.sql.Connection) result;
                    return java.lang.reflect.Proxy.newProxyInstance(PostgresWriteThenReadIT.class.getClassLoader(),
                            new Class<?>[] {java.sql.Connection.class}, (cProxy, cMethod, cArgs) -> {
                                boolean[] readBack = READ_BACK.get();
                                if (readBack != null && cMethod.getName().equals("prepareStatement")
                                        && cArgs[0] instanceof String sql) {
                                    if (sql.startsWith("select pg_last_wal_replay_lsn(), current_setting('transaction_isolation'); ")) {
                                        asks.checked.incrementAndGet();
                                        readBack[0] = true;
                                    }
                                    else if (sql.equals("select pg_last_wal_replay_lsn()")) {
                                        (readBack[0] ? asks.askedAfterCheck : asks.askedFirst).incrementAndGet();
                                    }
                                }
                                return invoke(c, cMethod, cArgs);
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * A transaction committed asynchronously ({@code SET LOCAL synchronous_commit = off}, which many applications use for
     * writes they can afford to lose in a crash) returns before its commit record is flushed: the WAL flush position read
     * after it may still be before the record, and a standby that replayed that much has not the write. The commit's
     * round trip reads the setting inside the transaction and then waits for the WAL insert position instead. With every
     * user committing asynchronously nobody's commit flushes the others' (only the WAL writer does, every 200 ms here), so
     * a read-back that waited for the flush position would read the row before the write many times in this run (388
     * of 400 when the guard's answer was ignored).
     */
    @Test
    void transactionsCommittedAsynchronouslyAreReadBackFromTheStandbysAndNeverStale() throws Exception {
        profiles();
        emf = routingFactory();
        awaitStandbysUp();
        Load load = writeThenRead(50, em -> em.createNativeQuery("set local synchronous_commit = off").executeUpdate());
        Map<String, Long> reasons = new TreeMap<>(RwSplit.statistics(emf).byReason());
        System.out.printf("[pg-write-then-read-it] asynchronous commits: %d stale, %d of %d read-backs on a standby;"
                + " reasons %s%n", load.stale().size(), load.onStandby(), load.readBacks(), reasons);
        // no floor on the standbys' share: an asynchronous commit reaches them only once the WAL writer flushes it (up
        // to wal_writer_delay, 200 ms, later), so most read-backs go to the primary, which is where the row is
        assertEquals(List.of(), load.firstStale(), "no read-back is stale");
    }

    /**
     * Reading a commit's position must not leave a transaction open on the primary in manual-commit mode: pgjdbc
     * would begin one for the query, and the application's next {@code setAutoCommit(true)} or {@code commit()}
     * would end it with one more round trip, an empty transaction on the primary for every write.
     */
    @Test
    void aCommitInManualCommitModeLeavesNoTransactionOpenOnThePrimary() throws Exception {
        freshTable("commit_state", "id bigint primary key, v varchar(10)");
        emf = routingFactory();
        List<String> states = new ArrayList<>();
        try (org.hibernate.Session session = emf.unwrap(org.hibernate.SessionFactory.class).openSession()) {
            session.doWork(c -> {
                c.setAutoCommit(false);
                for (int i = 1; i <= 3; i++) {
                    try (java.sql.Statement s = c.createStatement()) {
                        s.executeUpdate("insert into commit_state values (" + i + ", 'x')");
                    }
                    c.commit();
                    states.add(transactionState(c));
                }
                c.setAutoCommit(true);
            });
            assertEquals(3, RwSplit.statistics(session).primaryStatements(), "the three inserts, on the primary");
        }
        assertEquals(List.of("IDLE", "IDLE", "IDLE"), states, "pgjdbc's transaction state after each commit");
    }

    /**
     * A transaction that wrote is committed together with the reading of its position: one round trip (one Sync sent
     * by pgjdbc) for the insert and one for the commit, where {@code commit()} followed by the position query took
     * two. Counted from pgjdbc's own protocol log, on this thread only (the monitor's probes run on others).
     */
    @Test
    void aWriteTransactionCommitsAndReadsItsPositionInOneRoundTrip() throws Exception {
        freshTable("round_trips", "id bigint primary key, v varchar(10)");
        emf = routingFactory();
        try (org.hibernate.Session session = emf.unwrap(org.hibernate.SessionFactory.class).openSession();
             SyncCounter syncs = new SyncCounter()) {
            List<Long> perWrite = new ArrayList<>();
            session.doWork(c -> {
                c.setAutoCommit(false);
                try (java.sql.Statement s = c.createStatement()) {
                    s.executeUpdate("insert into round_trips values (0, 'warm')"); // the first statement also opens
                }
                c.commit();
                for (int i = 1; i <= 3; i++) {
                    long before = syncs.count();
                    try (java.sql.Statement s = c.createStatement()) {
                        s.executeUpdate("insert into round_trips values (" + i + ", 'x')");
                    }
                    c.commit();
                    perWrite.add(syncs.count() - before);
                }
                c.setAutoCommit(true);
            });
            assertEquals(List.of(2L, 2L, 2L), perWrite, "round trips per write transaction: the insert, the commit");
        }
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals(4L, ((Number) em.createNativeQuery("select count(*) from round_trips").getSingleResult())
                    .longValue(), "every insert committed and read back (the position was recorded: no stale read)");
        }
    }

    /**
     * pgjdbc's {@code autosave=always} wraps each statement in a transaction in a savepoint (and releases it with
     * {@code cleanupSavepoints}): the combined commit still commits, and its read-back is not stale.
     */
    @Test
    void withPgjdbcAutosaveTheCommitStillCommitsAndIsReadBack() throws Exception {
        freshTable("autosaved", "id bigint primary key, v varchar(10)");
        emf = routingFactory("?autosave=always&cleanupSavepoints=true");
        for (int i = 1; i <= 20; i++) {
            long id = i;
            doWork(c -> {
                c.setAutoCommit(false);
                try (java.sql.Statement s = c.createStatement()) {
                    s.executeUpdate("insert into autosaved values (" + id + ", 'x')");
                }
                c.commit();
                c.setAutoCommit(true);
            });
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals(id, ((Number) em.createNativeQuery("select count(*) from autosaved").getSingleResult())
                        .longValue(), "write " + id + " read back");
            }
        }
    }

    /** A commit that fails (a deferred constraint) throws as it would without the module, and nothing is written. */
    @Test
    void aCommitThatFailsAtTheServerThrowsItsErrorAndWritesNothing() throws Exception {
        freshTable("deferred_unique", "id bigint primary key, code int,"
                + " constraint code_unique unique (code) deferrable initially deferred");
        emf = routingFactory();
        String[] failure = new String[1];
        doWork(c -> {
            c.setAutoCommit(false);
            try (java.sql.Statement s = c.createStatement()) {
                s.executeUpdate("insert into deferred_unique values (1, 7)");
                s.executeUpdate("insert into deferred_unique values (2, 7)");
            }
            try {
                c.commit();
            }
            catch (java.sql.SQLException e) {
                failure[0] = e.getSQLState();
            }
            c.setAutoCommit(true);
            try (java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("select count(*) from deferred_unique")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "nothing of the failed transaction is visible");
            }
        });
        assertEquals("23505", failure[0], "the commit threw the deferred constraint's error");
    }

    /**
     * A transaction that an error aborted (the application caught the error and went on) and then commits gets the
     * driver's own answer, exactly as without the module: here pgjdbc rolls back without an exception. Nothing was
     * committed, so nothing is recorded for read-your-writes.
     */
    @Test
    void aCommitAfterASwallowedErrorAnswersAsThePlainDriverDoes() throws Exception {
        freshTable("swallowed", "id bigint primary key");
        String plain;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(cluster.jdbcUrl(TestCluster.PRIMARY),
                cluster.user(), cluster.password())) {
            plain = commitAfterSwallowedError(c, 1);
        }
        emf = routingFactory();
        String[] routed = new String[1];
        doWork(c -> routed[0] = commitAfterSwallowedError(c, 2));
        assertEquals("commit: no exception, rows of the transaction: 0", plain, "plain pgjdbc");
        assertEquals(plain, routed[0], "hibernate-rwsplit");
        try (EntityManager em = emf.createEntityManager()) {
            em.createNativeQuery("select count(*) from swallowed").getSingleResult();
            assertEquals(1, RwSplit.statistics(em).replicaStatements(),
                    "nothing was committed: the next read need not wait for it nor go to the primary; reasons "
                            + RwSplit.statistics(emf).byReason());
        }
    }

    private static String commitAfterSwallowedError(java.sql.Connection c, long id) throws java.sql.SQLException {
        c.setAutoCommit(false);
        try (java.sql.Statement s = c.createStatement()) {
            s.executeUpdate("insert into swallowed values (" + id + ")");
            try {
                s.executeUpdate("insert into swallowed values (" + id + ")");
            }
            catch (java.sql.SQLException duplicate) {
                // the application goes on: the transaction is aborted now
            }
        }
        String outcome;
        try {
            c.commit();
            outcome = "commit: no exception";
        }
        catch (java.sql.SQLException e) {
            outcome = "commit: " + e.getSQLState();
        }
        c.setAutoCommit(true);
        try (java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("select count(*) from swallowed where id = " + id)) {
            rs.next();
            return outcome + ", rows of the transaction: " + rs.getLong(1);
        }
    }

    /** Runs {@code work} on the JDBC connection of a new session of {@link #emf}, as an application's {@code doWork}. */
    private void doWork(org.hibernate.jdbc.Work work) {
        try (org.hibernate.Session session = emf.unwrap(org.hibernate.SessionFactory.class).openSession()) {
            session.doWork(work);
        }
    }

    /** Creates table {@code name} anew on the primary with {@code columns}, and waits until both standbys have it. */
    private void freshTable(String name, String columns) throws java.sql.SQLException {
        cluster.update(TestCluster.PRIMARY, "drop table if exists " + name);
        cluster.update(TestCluster.PRIMARY, "create table " + name + " (" + columns + ")");
        cluster.sync();
    }

    /** Counts the Sync messages pgjdbc sends on the current thread (one per round trip), from its FINEST log. */
    private static final class SyncCounter extends java.util.logging.Handler implements AutoCloseable {
        private final java.util.logging.Logger logger = java.util.logging.Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");
        private final java.util.logging.Level level = logger.getLevel();
        private final long thread = Thread.currentThread().getId();
        private final AtomicLong syncs = new AtomicLong();

        SyncCounter() {
            logger.setLevel(java.util.logging.Level.FINEST);
            logger.addHandler(this);
        }

        long count() {
            return syncs.get();
        }

        @Override
        public void publish(java.util.logging.LogRecord r) {
            if (r.getLongThreadID() == thread && "FE=> Sync".equals(String.valueOf(r.getMessage()).trim())) {
                syncs.incrementAndGet();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
            logger.setLevel(level);
        }
    }

    /** The cluster's primary and both standbys, hibernate-rwsplit's defaults (as a new user configures it). */
    private EntityManagerFactory routingFactory() {
        return routingFactory("");
    }

    /** As {@link #routingFactory()}, with {@code urlParameters} after the primary's URL. */
    private EntityManagerFactory routingFactory(String urlParameters) {
        return routingFactory(urlParameters, Map.of());
    }

    /** As {@link #routingFactory(String)}, with {@code settings} too. */
    private EntityManagerFactory routingFactory(String urlParameters, Map<String, String> settings) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("pg-write-then-read-it")
                .managedClass(Profile.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY) + urlParameters)
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.namedReplicaUrls());
        settings.forEach(cfg::property);
        return cfg.createEntityManagerFactory();
    }

    /** pgjdbc's transaction state of the physical connection behind {@code c} (IDLE, OPEN or FAILED). */
    private static String transactionState(java.sql.Connection c) {
        try {
            Class<?> base = Class.forName("org.postgresql.core.BaseConnection");
            Object pg = c.unwrap(base);
            return String.valueOf(base.getMethod("getTransactionState").invoke(pg));
        }
        catch (ReflectiveOperationException | java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}
