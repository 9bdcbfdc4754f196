package io.rwsplit.demo.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

class ReplicationSimulatorTest {

    private static Supplier<Connection> h2(String url) {
        return () -> {
            try {
                return DriverManager.getConnection(url, "sa", "");
            }
            catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private static Connection database(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url, "sa", "");
        try (Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, v varchar(10))");
        }
        return c;
    }

    private static String value(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select v from t where id = 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void replicaShowsACommitOnlyOnceTheDelayHasPassed() throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 8);
        String primaryUrl = "jdbc:h2:mem:sim_p_" + id + ";DB_CLOSE_DELAY=-1";
        String replicaUrl = "jdbc:h2:mem:sim_r_" + id + ";DB_CLOSE_DELAY=-1";
        Duration delay = Duration.ofMillis(300);
        CountDownLatch seen = new CountDownLatch(1);
        AtomicLong firstSeenAt = new AtomicLong();
        try (Connection primary = database(primaryUrl); Connection replica = database(replicaUrl);
             Connection observer = DriverManager.getConnection(replicaUrl, "sa", "");
             ReplicationSimulator simulator = new ReplicationSimulator(h2(primaryUrl), List.of(h2(replicaUrl)),
                     List.of("t"), delay)
                     .onApplied(capturedAt -> {
                         // runs right after each applied snapshot: the first one that shows the row
                         try {
                             if (seen.getCount() > 0 && value(observer) != null) {
                                 firstSeenAt.set(System.nanoTime());
                                 seen.countDown();
                             }
                         }
                         catch (SQLException e) {
                             throw new IllegalStateException(e);
                         }
                     })
                     .start();
             Statement s = primary.createStatement()) {
            long beforeCommit = System.nanoTime();
            s.executeUpdate("insert into t values (1, 'new')");
            assertTrue(seen.await(10, TimeUnit.SECONDS), "the simulator applied the commit");
            assertEquals("new", value(replica));
            long lagMillis = (firstSeenAt.get() - beforeCommit) / 1_000_000;
            assertTrue(lagMillis >= delay.toMillis(), "replica showed the row after " + lagMillis + " ms");
        }
    }

    @Test
    void rejectsANegativeDelay() {
        assertThrows(IllegalArgumentException.class,
                () -> new ReplicationSimulator(h2("jdbc:h2:mem:x"), List.of(), List.of("t"), Duration.ofMillis(-1)));
    }
}
