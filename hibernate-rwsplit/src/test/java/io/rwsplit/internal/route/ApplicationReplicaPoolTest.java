package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.health.ReplicaState;
import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.Fallback;
import io.rwsplit.internal.health.HealthPolicy;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.testing.DataSourceAdapter;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.H2Server;

/**
 * A replica given as the application's own data source (a pool the module did not configure, as Quarkus's Agroal
 * pools are): a read runs on a read-only connection, and the connection goes back to its pool as the pool lent it, so
 * that a pool that does not reset what a borrower changed lends the next borrower what it configured. The pool here
 * keeps one connection and resets nothing; its connections keep their read-only flag as a driver does.
 */
class ApplicationReplicaPoolTest {

    private final H2Server primary;
    private final H2Server replica;

    ApplicationReplicaPoolTest() throws SQLException {
        primary = new H2Server("primary", schema("primary"));
        replica = new H2Server("r1", schema("r1"));
    }

    @AfterEach
    void close() throws SQLException {
        primary.shutdown();
        replica.shutdown();
    }

    private static List<String> schema(String name) {
        return List.of("create table who (id int primary key, name varchar(20))",
                "insert into who values (1, '" + name + "')");
    }

    /** A pool of one connection that lends it read-only or not, as configured, and resets nothing on its return. */
    private final class NonResettingPool extends DataSourceAdapter {
        final AtomicInteger readOnlySwitches = new AtomicInteger();
        final AtomicInteger lent = new AtomicInteger();
        final AtomicInteger returned = new AtomicInteger();
        /** The read-only flag of the pool's one connection, as its driver keeps it. */
        volatile boolean readOnly;
        /** Whether the flag was set while a statement ran on the connection. */
        volatile boolean readOnlyWhenRead;
        volatile boolean refusesReadOnly;
        private Connection physical;

        NonResettingPool(boolean lendsReadOnly) {
            this.readOnly = lendsReadOnly;
        }

        @Override
        public synchronized Connection getConnection() throws SQLException {
            if (physical == null) {
                physical = replica.getConnection();
            }
            lent.incrementAndGet();
            Connection real = physical;
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (p, method, args) -> switch (method.getName()) {
                        case "isReadOnly" -> readOnly;
                        case "setReadOnly" -> {
                            if (refusesReadOnly) {
                                throw new SQLException("simulated: cannot set read-only", "08S01");
                            }
                            readOnlySwitches.incrementAndGet();
                            readOnly = (Boolean) args[0];
                            yield null;
                        }
                        case "close" -> {
                            returned.incrementAndGet();   // back to the pool, as it is
                            yield null;
                        }
                        case "isClosed" -> false;
                        case "prepareStatement" -> {
                            readOnlyWhenRead = readOnly;
                            yield invoke(method, real, args);
                        }
                        default -> invoke(method, real, args);
                    });
        }
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Router router(NonResettingPool pool) {
        ReplicaNode node = new ReplicaNode(0, "r1", 1, 1, pool, true);
        ReplicaSet set = new ReplicaSet("app-pool", List.of(node), LoadBalancers.create("round_robin"), new FakeClock(),
                new HealthPolicy(2, 1_000_000, 1_000_000_000L));
        return new Router("app-pool", new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                return primary.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                connection.close();
            }
        }, set, Fallback.PRIMARY);
    }

    private static String read(Router router) throws SQLException {
        try (Connection c = router.open(false); PreparedStatement ps = c.prepareStatement("select name from who");
             ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void aWritableConnectionReadsReadOnlyAndGoesBackWritable() throws SQLException {
        NonResettingPool pool = new NonResettingPool(false);
        Router router = router(pool);
        for (int i = 0; i < 3; i++) {
            assertEquals("r1", read(router));
            assertTrue(pool.readOnlyWhenRead, "the read ran on a read-only connection");
            assertFalse(pool.readOnly, "given back as lent: writable");
        }
        assertEquals(3, pool.returned.get());
    }

    @Test
    void aReadOnlyConnectionIsNeitherSwitchedNorGivenBackWritable() throws SQLException {
        NonResettingPool pool = new NonResettingPool(true);
        Router router = router(pool);
        for (int i = 0; i < 3; i++) {
            assertEquals("r1", read(router));
            assertTrue(pool.readOnly, "given back as lent: read-only, for the pool's next borrower too");
        }
        assertEquals(0, pool.readOnlySwitches.get(), "nothing to switch");
        assertEquals(3, pool.returned.get());
    }

    @Test
    void aConnectionThatCannotBeMadeReadOnlyGoesBackToItsPoolAndTheReadToThePrimary() throws SQLException {
        NonResettingPool pool = new NonResettingPool(false);
        pool.refusesReadOnly = true;
        Router router = router(pool);
        assertEquals("primary", read(router));
        assertEquals(1, pool.lent.get());
        assertEquals(1, pool.returned.get(), "given back, not leaked");
        assertEquals(ReplicaState.DOWN, router.replicas().health().replicas().get(0).state());
    }
}
