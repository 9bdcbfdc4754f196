package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.Fallback;
import io.rwsplit.internal.health.HealthPolicy;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.internal.replica.PoolControl;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.testing.DataSourceAdapter;
import io.rwsplit.testing.FakeClock;

/** Borrowing a replica connection: nothing leaks, and only a pool that holds busy connections is saturated. */
class RouterBorrowTest {

    private final AtomicInteger closed = new AtomicInteger();
    private final FakeClock clock = new FakeClock();

    /** A pool that times out on its own, holding connections or not. */
    private static DataSourceAdapter timingOut() {
        return new DataSourceAdapter() {
            @Override
            public Connection getConnection() throws SQLException {
                throw new SQLTransientConnectionException("p - Connection is not available, request timed out after 250ms");
            }
        };
    }

    private static PoolControl holding(boolean holds) {
        return new PoolControl() {
            @Override
            public String initSql() {
                return null;
            }

            @Override
            public void evict(Connection connection) {
            }

            @Override
            public boolean holdsConnections() {
                return holds;
            }
        };
    }

    private Router router(ReplicaNode node) {
        ReplicaSet set = new ReplicaSet("borrow", List.of(node), LoadBalancers.create("round_robin"), clock,
                new HealthPolicy(2, 1_000_000, 1_000_000_000L));
        return new Router("borrow", null, set, Fallback.PRIMARY, null);
    }

    /**
     * A PostgreSQL replica dying: the first-use question on a new connection (when did the server start?) fails with
     * a connection error (57P01), and HikariCP marks the connection broken. The borrow fails as a broken connection
     * does, so that the read goes elsewhere instead of preparing on a closed connection.
     */
    private final DataSourceAdapter dyingPostgres = new DataSourceAdapter() {
        @Override
        public Connection getConnection() {
            Object metaData = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {java.sql.DatabaseMetaData.class},
                    (p, method, args) -> switch (method.getName()) {
                        case "getDatabaseProductName" -> "PostgreSQL";
                        case "getDatabaseProductVersion" -> "15.8";
                        default -> null;
                    });
            Object statement = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {java.sql.Statement.class},
                    (p, method, args) -> {
                        if (method.getName().equals("executeQuery")) {
                            throw new SQLException("simulated: FATAL: terminating connection due to unexpected postmaster exit",
                                    "57P01");
                        }
                        return null;
                    });
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (p, method, args) -> switch (method.getName()) {
                        case "getMetaData" -> metaData;
                        case "createStatement" -> statement;
                        case "isWrapperFor" -> false;
                        case "close" -> {
                            closed.incrementAndGet();
                            yield null;
                        }
                        default -> null;
                    });
        }
    };

    @Test
    void aConnectionThatBreaksWhenFirstAskedIsNotLentToARead() throws SQLException {
        ReplicaNode node = new ReplicaNode(0, "r1", 1, 1, dyingPostgres, false);
        Router router = router(node);
        assertNull(router.borrow(node), "no connection for the read: it goes to another replica or the primary");
        assertEquals(1, closed.get(), "given back to its pool, not leaked");
        assertEquals(ReplicaState.DOWN, router.replicas().health().replicas().get(0).state());
    }

    @Test
    void aTimeoutOfAPoolHoldingBusyConnectionsIsSaturation() {
        ReplicaNode node = new ReplicaNode(0, "r1", 1, 1, timingOut(), false, holding(true));
        Router router = router(node);
        assertThrows(SQLTransientConnectionException.class, () -> router.borrow(node));
        assertEquals(ReplicaState.UP, router.replicas().health().replicas().get(0).state());
    }

    @Test
    void aTimeoutOfAPoolHoldingNoConnectionIsAServerThatDoesNotAnswer() throws SQLException {
        ReplicaNode node = new ReplicaNode(0, "r1", 1, 1, timingOut(), false, holding(false));
        Router router = router(node);
        assertNull(router.borrow(node));
        assertEquals(ReplicaState.DOWN, router.replicas().health().replicas().get(0).state());
    }
}
