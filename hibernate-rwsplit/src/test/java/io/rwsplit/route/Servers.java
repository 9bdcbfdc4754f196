package io.rwsplit.route;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.rwsplit.balance.LoadBalancers;
import io.rwsplit.config.Fallback;
import io.rwsplit.health.FakeClock;
import io.rwsplit.health.HealthPolicy;
import io.rwsplit.replica.PoolControl;
import io.rwsplit.replica.PrimarySource;
import io.rwsplit.replica.ReplicaNode;
import io.rwsplit.replica.ReplicaSet;
import io.rwsplit.testing.DataSourceAdapter;

/**
 * A router over in-memory H2 databases, for tests of the routing connection below Hibernate: the primary
 * and each replica have a table {@code who(name)} whose one row names the server ("primary", "r1", ...), so
 * every read shows where it ran. Connections can be made to fail (commit, or every execution or the next
 * few with a connection error, or every execution refused as a write) and count their commits.
 */
final class Servers implements AutoCloseable {

    /** One H2 database and the switches of the connections it hands out. */
    static final class Server extends DataSourceAdapter {
        final String name;
        final String url;
        volatile boolean commitFails;
        volatile boolean executionFails;
        /**
         * While set, every execution on this server's statements is refused as a write (SQLState 25006), as a read-only
         * PostgreSQL standby answers a statement that writes.
         */
        volatile boolean refusesWrites;
        /** How many executions were refused while {@link #refusesWrites} was set. */
        final AtomicInteger refusedExecutions = new AtomicInteger();
        final AtomicInteger commits = new AtomicInteger();
        /** How many of the next executions fail with a connection error (a server that went away under them). */
        final AtomicInteger failNextExecutions = new AtomicInteger();
        final AtomicInteger failedExecutions = new AtomicInteger();
        final List<Connection> handedOut = new ArrayList<>();
        /** While set, asking for a connection throws what it supplies (a pool that is busy, a server that refuses). */
        volatile java.util.function.Supplier<SQLException> lendFails;
        /** How many times a connection was asked for while {@link #lendFails} was set. */
        final AtomicInteger refusedLends = new AtomicInteger();
        /** While set, the server says it is read-only ({@link java.sql.DatabaseMetaData#isReadOnly()}), as a replica does. */
        volatile boolean readOnly;
        /** While set, the product name the server's metadata gives (to make routing take H2 for another database). */
        volatile String productName;
        /** The network timeouts set on this server's connections, in order. */
        final List<Integer> networkTimeouts = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** How many times routing asked whether the server is read-only. */
        final AtomicInteger readOnlyChecks = new AtomicInteger();
        /** How many of the next read-only checks fail with a connection error (a connection that died in the pool). */
        final AtomicInteger failNextReadOnlyChecks = new AtomicInteger();
        /** How many of the next read-only checks find the connection closed by its pool ("Connection is closed", no SQLState). */
        final AtomicInteger closeOnNextReadOnlyChecks = new AtomicInteger();
        /** The connections whose read-only check failed. */
        final List<Connection> failedChecks = new java.util.concurrent.CopyOnWriteArrayList<>();
        /**
         * While set, executions on this server's connections block until their connection is aborted and then fail
         * with a connection error, as reads on a frozen server (SIGSTOP, a paused VM) do when their socket is closed.
         */
        volatile boolean frozen;
        /** While set, giving a connection back ({@code close}) throws a runtime exception after closing it. */
        volatile boolean closeThrows;
        /** Executions blocked on the frozen server right now. */
        final AtomicInteger blocked = new AtomicInteger();
        /** Counted down when the first execution blocks on the frozen server. */
        final java.util.concurrent.CountDownLatch firstBlocked = new java.util.concurrent.CountDownLatch(1);
        /** The connections aborted, and the threads that aborted them. */
        final List<Connection> aborted = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> abortedBy = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.Map<Connection, java.util.concurrent.CountDownLatch> abortLatches =
                new java.util.concurrent.ConcurrentHashMap<>();
        /** Connections routing closed for good after they replayed session commands. */
        final AtomicInteger evicted = new AtomicInteger();
        /** What routing may ask of this "pool" (every connection is new, so evicting closes it). */
        final PoolControl control = new PoolControl() {
            @Override
            public String initSql() {
                return null;
            }

            @Override
            public void evict(Connection connection) throws SQLException {
                evicted.incrementAndGet();
                connection.close();
            }
        };

        Server(String name) throws SQLException {
            this.name = name;
            this.url = "jdbc:h2:mem:" + name + "_" + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1";
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
                s.execute("create table who (id int primary key, name varchar(20))");
                s.execute("insert into who values (1, '" + name + "')");
                s.execute("create table item (id int auto_increment primary key, label varchar(20))");
                // a session setting that shows where it was applied: SET SCHEMA other, then who answers "name/other"
                s.execute("create schema other");
                s.execute("create table other.who (id int primary key, name varchar(20))");
                s.execute("insert into other.who values (1, '" + name + "/other')");
            }
        }

        @Override
        public Connection getConnection() throws SQLException {
            java.util.function.Supplier<SQLException> refusal = lendFails;
            if (refusal != null) {
                refusedLends.incrementAndGet();
                throw refusal.get();
            }
            Connection real = DriverManager.getConnection(url, "sa", "");
            Connection proxy = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Connection.class}, (p, method, args) -> {
                        if (method.getName().equals("close") && closeThrows) {
                            real.close();
                            throw new IllegalStateException("simulated: the pool failed taking the connection back");
                        }
                        if (method.getName().equals("abort")) {
                            aborted.add((Connection) p);
                            abortedBy.add(Thread.currentThread().getName());
                            abortLatches.computeIfAbsent((Connection) p, k -> new java.util.concurrent.CountDownLatch(1))
                                    .countDown();
                            real.close();
                            return null;
                        }
                        if (method.getName().equals("setNetworkTimeout")) {
                            networkTimeouts.add((Integer) args[1]);
                            return null;  // H2 ignores it: recorded here instead
                        }
                        if (method.getName().equals("commit")) {
                            if (commitFails) {
                                throw new SQLException("simulated: commit failed", "40001");
                            }
                            commits.incrementAndGet();
                        }
                        Object result = invoke(real, method, args);
                        if (result instanceof java.sql.DatabaseMetaData meta) {
                            return readOnlyAsSet(meta, (Connection) p);
                        }
                        if (result instanceof Statement statement && !method.getName().equals("unwrap")) {
                            return failing(statement, (Connection) p);
                        }
                        return result;
                    });
            synchronized (handedOut) {
                handedOut.add(proxy);
            }
            return proxy;
        }

        /** The server's metadata, read-only as {@link #readOnly} says. */
        private java.sql.DatabaseMetaData readOnlyAsSet(java.sql.DatabaseMetaData real, Connection owner) {
            return (java.sql.DatabaseMetaData) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {java.sql.DatabaseMetaData.class}, (p, method, args) -> {
                        if (method.getName().equals("getDatabaseProductName") && productName != null) {
                            return productName;
                        }
                        if (method.getName().equals("isReadOnly")) {
                            readOnlyChecks.incrementAndGet();
                            if (failNextReadOnlyChecks.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                                failedChecks.add(owner);
                                throw new SQLNonTransientConnectionException("simulated: I/O error", "08006");
                            }
                            if (closeOnNextReadOnlyChecks.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                                failedChecks.add(owner);
                                owner.close(); // as HikariCP closes a connection it found broken
                                throw new SQLException("Connection is closed");
                            }
                            return readOnly;
                        }
                        return invoke(real, method, args);
                    });
        }

        /**
         * A statement whose executions fail with a connection error while {@link #executionFails} is set (or for the
         * next {@link #failNextExecutions}), and are refused as writes while {@link #refusesWrites} is set.
         */
        private Object failing(Statement real, Connection owner) {
            List<Class<?>> types = new ArrayList<>();
            for (Class<?> type : real.getClass().getInterfaces()) {
                if (type.getName().startsWith("java.sql.")) {
                    types.add(type);
                }
            }
            if (types.isEmpty()) {
                types.add(Statement.class);
            }
            return Proxy.newProxyInstance(getClass().getClassLoader(), types.toArray(new Class<?>[0]),
                    (p, method, args) -> {
                        if (method.getName().startsWith("execute") && frozen) {
                            blocked.incrementAndGet();
                            firstBlocked.countDown();
                            try {
                                if (!abortLatches.computeIfAbsent(owner, k -> new java.util.concurrent.CountDownLatch(1))
                                        .await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                                    throw new SQLException("simulated: frozen server, never aborted in 30 s");
                                }
                            }
                            finally {
                                blocked.decrementAndGet();
                            }
                            throw new SQLNonTransientConnectionException("simulated: socket closed by abort", "08006");
                        }
                        if (method.getName().startsWith("execute")
                                && (executionFails || failNextExecutions.getAndUpdate(n -> Math.max(0, n - 1)) > 0)) {
                            failedExecutions.incrementAndGet();
                            throw new SQLNonTransientConnectionException("simulated: socket closed by peer", "08S01");
                        }
                        if (method.getName().startsWith("execute") && refusesWrites) {
                            refusedExecutions.incrementAndGet();
                            throw new SQLException("simulated: cannot execute in a read-only transaction", "25006");
                        }
                        if (method.getName().equals("getConnection")) {
                            return owner;
                        }
                        return invoke(real, method, args);
                    });
        }

        /** The name stored in this server's row, read directly. */
        void execute(String sql) throws SQLException {
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }

        String read(String sql) throws SQLException {
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery(sql)) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    final FakeClock clock = new FakeClock();
    final Server primary;
    final List<Server> replicas = new ArrayList<>();
    final List<ReplicaNode> nodes = new ArrayList<>();
    final ReplicaSet set;
    final Router router;

    Servers(int replicaCount, String balancer) throws SQLException {
        this(replicaCount, balancer, false);
    }

    /** @param consistency whether sessions track consistency ({@link #session}), with default settings */
    Servers(int replicaCount, String balancer, boolean consistency) throws SQLException {
        primary = new Server("primary");
        for (int i = 1; i <= replicaCount; i++) {
            Server replica = new Server("r" + i);
            replicas.add(replica);
            nodes.add(new ReplicaNode(i - 1, replica.name, 1, 1, replica, false, replica.control));
        }
        set = new ReplicaSet("test", nodes, LoadBalancers.create(balancer), clock,
                new HealthPolicy(2, 1_000_000, 1_000_000_000L));
        router = new Router("test", new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                return primary.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                connection.close();
            }
        }, set, Fallback.PRIMARY, consistency ? new io.rwsplit.consistency.CausalReads(
                io.rwsplit.consistency.ConsistencyRuntime.create(java.util.Map.of(), clock), "test", set.epochs()) : null);
    }

    /** A session with its own consistency state (needs consistency), at {@code level}. */
    SessionRouting session(io.rwsplit.Consistency level) {
        SessionRouting session = new SessionRouting(null, router.causal().newSession(), io.rwsplit.spi.RoutingIntentSource.NONE);
        session.consistency().level(level);
        return session;
    }

    /** A new logical connection of {@code session}, as Hibernate gets one for it. */
    RoutingConnection open(SessionRouting session) {
        router.beginAcquisition(session);
        try {
            return router.open(false);
        }
        finally {
            router.endAcquisition();
        }
    }

    /** A new logical connection, as Hibernate gets one. */
    RoutingConnection open() {
        return router.open(false);
    }

    /** Takes replica {@code index} out of rotation. */
    void down(int index) {
        set.markDown(nodes.get(index), new SQLException("simulated: gone", "08006"));
    }

    /** Brings replica {@code index} back after the recovery period. */
    void up(int index) {
        set.probed(nodes.get(index), io.rwsplit.spi.LagSample.of(0), null);
        clock.advanceMillis(1000);
        set.probed(nodes.get(index), io.rwsplit.spi.LagSample.of(0), null);
        if (!set.isUp(nodes.get(index))) {
            throw new IllegalStateException("replica " + index + " did not come back");
        }
    }

    /** Which server answered {@code select name from who}, through {@code c}. */
    static String who(Connection c) throws SQLException {
        try (var ps = c.prepareStatement("select name from who where id = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    DataSource replica(int index) {
        return replicas.get(index);
    }

    @Override
    public void close() throws SQLException {
        for (Server server : all()) {
            try (Connection c = DriverManager.getConnection(server.url, "sa", ""); Statement s = c.createStatement()) {
                s.execute("shutdown");
            }
        }
    }

    private List<Server> all() {
        List<Server> all = new ArrayList<>(replicas);
        all.add(primary);
        return all;
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
