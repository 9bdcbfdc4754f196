package io.rwsplit.internal.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaMonitor;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.spi.Clock;
import io.rwsplit.testing.SwitchableDataSource;

/** The monitor's wiring on H2 with a short interval; the state machine itself is tested with a fake clock. */
class ReplicaMonitorTest {

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
                io.rwsplit.internal.health.HealthPolicy.of(config));
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
            ds.comeBack();
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
