package io.rwsplit.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import io.rwsplit.internal.replica.PoolControl;

/**
 * One in-memory H2 database of the tests' primaries and replicas, created with the schema and rows its harness gives
 * ({@code route.Servers} below the routing connection, {@code hibernate.H2Pair} below Hibernate), and the switches
 * of the connections it hands out as a {@link javax.sql.DataSource}: they can be made to fail (commit, or every
 * execution or the next few with a connection error, or every execution refused as a write, or block as on a frozen
 * server) and count their commits. Hibernate, given {@link #url}, connects to the database without the switches.
 */
public final class H2Server extends DataSourceAdapter {

    public final String name;
    public final String url;
    public volatile boolean commitFails;
    public volatile boolean executionFails;
    /**
     * While set, every execution on this server's statements is refused as a write (SQLState 25006), as a read-only
     * PostgreSQL standby answers a statement that writes.
     */
    public volatile boolean refusesWrites;
    /** How many executions were refused while {@link #refusesWrites} was set. */
    public final AtomicInteger refusedExecutions = new AtomicInteger();
    public final AtomicInteger commits = new AtomicInteger();
    /** How many of the next executions fail with a connection error (a server that went away under them). */
    public final AtomicInteger failNextExecutions = new AtomicInteger();
    public final AtomicInteger failedExecutions = new AtomicInteger();
    public final List<Connection> handedOut = new ArrayList<>();
    /** While set, asking for a connection throws what it supplies (a pool that is busy, a server that refuses). */
    public volatile Supplier<SQLException> lendFails;
    /** How many times a connection was asked for while {@link #lendFails} was set. */
    public final AtomicInteger refusedLends = new AtomicInteger();
    /** While set, the server says it is read-only ({@link DatabaseMetaData#isReadOnly()}), as a replica does. */
    public volatile boolean readOnly;
    /** While set, the product name the server's metadata gives (to make routing take H2 for another database). */
    public volatile String productName;
    /**
     * While set, a statement prepared with SQL for which it gives an error fails with that error when it executes, as
     * on a server that lacks what the SQL names (a standby that has not replayed a {@code CREATE TABLE} answers 42P01);
     * such a statement never reaches H2. Null: none fails.
     */
    public volatile Function<String, SQLException> preparedFails;
    /** How many executions {@link #preparedFails} failed. */
    public final AtomicInteger failedPrepared = new AtomicInteger();
    /** How many of the statements {@link #preparedFails} made were closed. */
    public final AtomicInteger closedFailingPrepared = new AtomicInteger();
    /** The network timeouts set on this server's connections, in order. */
    public final List<Integer> networkTimeouts = new CopyOnWriteArrayList<>();
    /** How many times routing asked whether the server is read-only. */
    public final AtomicInteger readOnlyChecks = new AtomicInteger();
    /** How many of the next read-only checks fail with a connection error (a connection that died in the pool). */
    public final AtomicInteger failNextReadOnlyChecks = new AtomicInteger();
    /** How many of the next read-only checks find the connection closed by its pool ("Connection is closed", no SQLState). */
    public final AtomicInteger closeOnNextReadOnlyChecks = new AtomicInteger();
    /** The connections whose read-only check failed. */
    public final List<Connection> failedChecks = new CopyOnWriteArrayList<>();
    /**
     * While set, executions on this server's connections block until their connection is aborted and then fail
     * with a connection error, as reads on a frozen server (SIGSTOP, a paused VM) do when their socket is closed.
     */
    public volatile boolean frozen;
    /** While set, giving a connection back ({@code close}) throws a runtime exception after closing it. */
    public volatile boolean closeThrows;
    /** The warnings every connection answers until this is null: the same head at each call, as pgjdbc's. */
    public volatile java.sql.SQLWarning warnings;
    /** Executions blocked on the frozen server right now. */
    public final AtomicInteger blocked = new AtomicInteger();
    /** Counted down when the first execution blocks on the frozen server. */
    public final CountDownLatch firstBlocked = new CountDownLatch(1);
    /** The connections aborted, and the threads that aborted them. */
    public final List<Connection> aborted = new CopyOnWriteArrayList<>();
    public final List<String> abortedBy = new CopyOnWriteArrayList<>();
    private final Map<Connection, CountDownLatch> abortLatches = new ConcurrentHashMap<>();
    /** Connections routing closed for good after they replayed session commands. */
    public final AtomicInteger evicted = new AtomicInteger();
    /** What routing may ask of this "pool" (every connection is new, so evicting closes it). */
    public final PoolControl control = new PoolControl() {
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

    /**
     * A new database {@code jdbc:h2:mem:<name>_<random>}, kept until {@link #shutdown()}, after running {@code schema}.
     */
    public H2Server(String name, List<String> schema) throws SQLException {
        this(name, "", schema);
    }

    /** @param urlOptions H2 settings appended to the URL, each after a {@code ;} ({@code ";LOCK_TIMEOUT=2000"}) */
    public H2Server(String name, String urlOptions, List<String> schema) throws SQLException {
        this.name = name;
        this.url = "jdbc:h2:mem:" + name + "_" + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1"
                + urlOptions;
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            for (String sql : schema) {
                s.execute(sql);
            }
        }
    }

    /** Whether its connections refuse every client info property set on them. */
    public volatile boolean refusesClientInfo;
    /** Run at each connection asked for, before it is lent (a test's latch: a borrow that takes its time). */
    public volatile Runnable beforeLend;

    /** Lends that wait until {@link Hold#release} (a borrow that takes its time): set by {@link #holdLends}. */
    public static final class Hold {
        private final java.util.concurrent.CountDownLatch lending = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);

        private void lend() {
            lending.countDown();
            try {
                released.await();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Whether a borrow began waiting within 10 s. */
        public boolean awaitLending() throws InterruptedException {
            return lending.await(10, java.util.concurrent.TimeUnit.SECONDS);
        }

        public void release() {
            released.countDown();
        }
    }

    /** From now on, each connection asked for waits until the hold is released. */
    public Hold holdLends() {
        Hold hold = new Hold();
        beforeLend = hold::lend;
        return hold;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Runnable before = beforeLend;
        if (before != null) {
            before.run();
        }
        Supplier<SQLException> refusal = lendFails;
        if (refusal != null) {
            refusedLends.incrementAndGet();
            throw refusal.get();
        }
        Connection real = DriverManager.getConnection(url, "sa", "");
        // H2 keeps client info only in its compatibility modes, and takes no type map but an empty one: each connection
        // keeps both here instead, as pgjdbc keeps them, so that tests see which connections they were set on
        java.util.Properties clientInfo = new java.util.Properties();
        Object[] typeMap = {new java.util.HashMap<String, Class<?>>()};
        Connection proxy = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (p, method, args) -> {
                    if (method.getName().equals("close") && closeThrows) {
                        real.close();
                        throw new IllegalStateException("simulated: the pool failed taking the connection back");
                    }
                    if (method.getName().equals("abort")) {
                        aborted.add((Connection) p);
                        abortedBy.add(Thread.currentThread().getName());
                        abortLatch((Connection) p).countDown();
                        real.close();
                        return null;
                    }
                    java.sql.SQLWarning answered = warnings;
                    if (method.getName().equals("getWarnings") && answered != null) {
                        return answered;
                    }
                    if (method.getName().equals("setNetworkTimeout")) {
                        networkTimeouts.add((Integer) args[1]);
                        return null;  // H2 ignores it: recorded here instead
                    }
                    switch (method.getName()) {
                        case "setClientInfo" -> {
                            if (refusesClientInfo) {   // as MySQL Connector/J's stored-procedure provider on a read-only server
                                throw new java.sql.SQLClientInfoException("simulated: client info refused", "HY000", 0,
                                        java.util.Map.of());
                            }
                            if (args.length == 1) {   // the whole set, which replaces the properties set before
                                clientInfo.clear();
                                clientInfo.putAll((java.util.Properties) args[0]);
                            }
                            else if (args[1] == null) {
                                clientInfo.remove(args[0]);
                            }
                            else {
                                clientInfo.setProperty((String) args[0], (String) args[1]);
                            }
                            return null;
                        }
                        case "getClientInfo" -> {
                            if (args == null) {
                                java.util.Properties copy = new java.util.Properties();
                                copy.putAll(clientInfo);
                                return copy;
                            }
                            return clientInfo.getProperty((String) args[0]);
                        }
                        case "setTypeMap" -> {
                            typeMap[0] = args[0];
                            return null;
                        }
                        case "getTypeMap" -> {
                            return typeMap[0];
                        }
                        default -> { }
                    }
                    Function<String, SQLException> fails = preparedFails;
                    SQLException lacking = fails != null && method.getName().equals("prepareStatement")
                            ? fails.apply((String) args[0]) : null;
                    if (lacking != null) {
                        return failingPrepared(lacking, (Connection) p);
                    }
                    if (method.getName().equals("commit")) {
                        if (commitFails) {
                            throw new SQLException("simulated: commit failed", "40001");
                        }
                        commits.incrementAndGet();
                    }
                    Object result = invoke(real, method, args);
                    if (result instanceof DatabaseMetaData meta) {
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

    /** A prepared statement every execution of which fails with {@code error} ({@link #preparedFails}). */
    private PreparedStatement failingPrepared(SQLException error, Connection owner) {
        boolean[] closed = {false};
        return JdbcFakes.fake(PreparedStatement.class, (name, args) -> {
            if (name.startsWith("execute")) {
                failedPrepared.incrementAndGet();
                throw error;
            }
            return switch (name) {
                case "close" -> {
                    if (!closed[0]) {
                        closed[0] = true;
                        closedFailingPrepared.incrementAndGet();
                    }
                    yield null;
                }
                case "isClosed" -> closed[0];
                case "getConnection" -> owner;
                case "getMaxRows", "getQueryTimeout", "getFetchSize", "getUpdateCount" -> 0;
                case "getMoreResults", "isPoolable", "isCloseOnCompletion" -> false;
                default -> null;
            };
        });
    }

    /** Runs {@code sql} on the database directly, past the switches. */
    public void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The first column of the first row {@code sql} returns (null when none), read directly, past the switches. */
    public String read(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Drops the database. */
    public void shutdown() throws SQLException {
        execute("shutdown");
    }

    private CountDownLatch abortLatch(Connection connection) {
        return abortLatches.computeIfAbsent(connection, k -> new CountDownLatch(1));
    }

    /** The server's metadata, read-only as {@link #readOnly} says. */
    private DatabaseMetaData readOnlyAsSet(DatabaseMetaData real, Connection owner) {
        return (DatabaseMetaData) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DatabaseMetaData.class}, (p, method, args) -> {
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
                            if (!abortLatch(owner).await(30, TimeUnit.SECONDS)) {
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

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
