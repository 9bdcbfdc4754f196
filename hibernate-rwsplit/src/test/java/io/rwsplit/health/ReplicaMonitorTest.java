package io.rwsplit.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.rwsplit.balance.LoadBalancers;
import io.rwsplit.config.ReplicaConfig;
import io.rwsplit.route.PrimarySource;
import io.rwsplit.route.ReplicaNode;
import io.rwsplit.route.ReplicaSet;
import io.rwsplit.spi.Clock;
import io.rwsplit.testing.DataSourceAdapter;

/** The monitor's wiring on H2 with a short interval; the state machine itself is tested with a fake clock. */
class ReplicaMonitorTest {

    /** An H2 data source that can be switched off. */
    static final class SwitchableDataSource extends DataSourceAdapter {
        final String url = "jdbc:h2:mem:mon_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        final java.util.Queue<Connection> handedOut = new java.util.concurrent.ConcurrentLinkedQueue<>();
        volatile boolean down;

        /** Refuses new connections and breaks the open ones, as a dead server does. */
        void goDown() throws SQLException {
            down = true;
            for (Connection c : handedOut) {
                c.close();
            }
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (down) {
                throw new SQLException("Connection refused", "08001");
            }
            Connection c = DriverManager.getConnection(url, "sa", "");
            handedOut.add(c);
            return c;
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 10 s: " + what);
            Thread.onSpinWait();
        }
    }

    @Test
    void probesEjectAnUnreachableReplicaAndBringItBackThenStopWithoutLeavingThreads() throws SQLException {
        SwitchableDataSource ds = new SwitchableDataSource();
        ReplicaNode node = new ReplicaNode(0, "r1", 1, 1, ds, true);
        HealthConfig config = new HealthConfig("auto", Duration.ofMillis(20), Duration.ofSeconds(1), Duration.ofSeconds(1),
                2, Duration.ofMillis(100), "rwsplit_heartbeat", 0, Duration.ofSeconds(1));
        ReplicaSet set = new ReplicaSet("mon", List.of(node), LoadBalancers.create("round_robin"), Clock.SYSTEM,
                config.policy());
        PrimarySource noPrimary = new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                throw new SQLException("not used");
            }

            @Override
            public void release(Connection connection) {
            }
        };
        ReplicaMonitor monitor = new ReplicaMonitor(set, List.of(new ReplicaConfig("r1", null, null, null, 1, 1, ds)),
                config, noPrimary, Clock.SYSTEM).start();
        try {
            await(() -> set.health().status("r1").observedAtNanos() != 0, "first probe");
            assertTrue(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("rwsplit-monitor-mon-") && t.isDaemon()));
            ds.goDown();
            await(() -> set.health().status("r1").state() == ReplicaState.DOWN, "ejected");
            assertTrue(set.health().status("r1").lastError().contains("Connection refused"));
            ds.down = false;
            await(() -> set.health().status("r1").isUp(), "back");
            assertEquals(1L, set.health().ejections().get("r1"));
        }
        finally {
            monitor.close();
        }
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("rwsplit-monitor-mon-")
                && t.isAlive()), "no monitor thread left behind");
    }
}
