package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.spi.LagSample;

class PostgresLagProbesTest {

    private static ReplicaConfig replica(String name, String url) {
        return new ReplicaConfig(name, url, null, null, 1, 1, null);
    }

    @Test
    void autoPicksTheLsnProbeForPostgresStandbys() {
        List<ReplicaConfig> standbys = List.of(replica("a", "jdbc:postgresql://h1/db"), replica("b", "jdbc:postgresql://h2/db"));
        assertEquals("lsn", LagProbes.resolve("auto", standbys));
        assertEquals("reachability", LagProbes.resolve("auto",
                List.of(replica("a", "jdbc:postgresql://h1/db"), replica("b", "jdbc:mariadb://h2/db"))));
        assertEquals("replay_timestamp", LagProbes.resolve("replay_timestamp", standbys));
    }

    @Test
    void refusesAtStartupAProbeTheReplicasDatabaseCannotAnswer() {
        List<ReplicaConfig> standbys = List.of(replica("s1", "jdbc:postgresql://h1/db"));
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> LagProbes.resolve("replica_status", standbys));
        assertTrue(e.getMessage().contains("'hibernate.rwsplit.lag_probe'") && e.getMessage().contains("'replica_status'")
                && e.getMessage().contains("jdbc:postgresql://h1/db"), e.getMessage());
        RuntimeException maria = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> LagProbes.resolve("lsn", List.of(replica("r1", "jdbc:mariadb://h/db"))));
        assertTrue(maria.getMessage().contains("'lsn'"), maria.getMessage());
        assertEquals("heartbeat", LagProbes.resolve("heartbeat", standbys));
        assertEquals("gtid", LagProbes.resolve("gtid", standbys));
    }

    @Test
    void knowsThePostgresProbesByName() {
        assertTrue(LagProbes.names().contains("lsn"));
        assertTrue(LagProbes.names().contains("replay_timestamp"));
        assertEquals("lsn", LagProbes.create("lsn", HealthConfig.DEFAULTS, new GtidReader(), () -> 0L).toString());
        assertEquals("replay_timestamp",
                LagProbes.create("replay_timestamp", HealthConfig.DEFAULTS, new GtidReader(), () -> 0L).toString());
    }

    @Test
    void replayTimestampIsZeroWhenTheStandbyReplayedAllItReceivedHoweverOldItsLastTransaction() {
        assertEquals(LagSample.of(0), ReplayTimestampProbe.sample(true, true, 3_600_000_000L, false));
        assertEquals(LagSample.of(0), ReplayTimestampProbe.sample(true, true, 0, true));
    }

    @Test
    void replayTimestampIsTheAgeOfTheLastReplayedTransactionWhileWalWaits() {
        assertEquals(LagSample.of(2_000_000), ReplayTimestampProbe.sample(true, false, 2_000_000, false));
    }

    @Test
    void replayTimestampReportsAServerThatIsNotAStandbyOrAnUnknownLagAsBroken() {
        LagSample primary = ReplayTimestampProbe.sample(false, true, 0, true);
        assertTrue(primary.isBroken());
        assertTrue(primary.broken().contains("pg_is_in_recovery()"), primary.broken());
        LagSample unknown = ReplayTimestampProbe.sample(true, false, 0, true);
        assertTrue(unknown.isBroken());
        assertFalse(ReplayTimestampProbe.sample(true, false, 5, false).isBroken());
    }
}
