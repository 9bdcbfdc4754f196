package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;
import io.rwsplit.testing.FakeClock;

/** What every built-in {@link LagProbe} promises, run against each of them by name; then the heartbeat on H2. */
class LagProbeContractTest {

    private final FakeClock clock = new FakeClock();

    static List<String> probes() {
        return List.copyOf(LagProbes.names());
    }

    private LagProbe probe(String name) {
        return LagProbes.create(name, HealthConfig.DEFAULTS, new GtidReader(), clock);
    }

    private static Connection h2(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:h2:mem:" + name + ";MODE=MySQL;DB_CLOSE_DELAY=-1", "sa", "");
    }

    @ParameterizedTest
    @MethodSource("probes")
    void anUnreachableReplicaIsAFailureNeverZeroLag(String name) throws SQLException {
        Connection c = h2("closed_" + UUID.randomUUID());
        c.close();
        assertThrows(SQLException.class, () -> probe(name).measure("r1", c));
    }

    @ParameterizedTest
    @MethodSource("probes")
    void aServerThatCannotAnswerTheProbeIsAFailureOrBrokenNeverZeroLag(String name) throws SQLException {
        // an H2 database has no replication status, no GTIDs and no heartbeat table
        try (Connection c = h2("plain_" + UUID.randomUUID())) {
            LagProbe probe = probe(name);
            if (name.equals("reachability")) {
                assertEquals(LagSample.of(0), probe.measure("r1", c), "reachability only answers 'reachable'");
                return;
            }
            if (probe instanceof PrimaryTask task) {
                // a probe that writes on the primary: the replica missed a beat written 100 ms ago
                try (Connection primary = h2("primary_" + UUID.randomUUID())) {
                    task.run(primary);
                }
                clock.advance(Duration.ofMillis(100));
            }
            try {
                LagSample sample = probe.measure("r1", c);
                assertTrue(sample.isBroken() || (probe instanceof PrimaryTask && sample.lagMicros() >= 100_000),
                        name + " returned " + sample);
            }
            catch (SQLException expected) {
                // a probe failure: fine
            }
        }
    }

    @ParameterizedTest
    @MethodSource("probes")
    void isCreatedByName(String name) {
        assertEquals(name, probe(name).toString().replaceAll("\\(.*", ""));
    }

    @Test
    void heartbeatMeasuresTheTimeSinceTheReplicaStoppedApplyingBeats() throws SQLException {
        String id = UUID.randomUUID().toString().substring(0, 8);
        try (Connection primary = h2("hb_primary_" + id); Connection replica = h2("hb_replica_" + id)) {
            HeartbeatProbe probe = new HeartbeatProbe("rwsplit_heartbeat", clock, Duration.ofMillis(250));
            probe.run(primary);
            try (Statement s = replica.createStatement()) {
                s.execute("create table rwsplit_heartbeat (id varchar(64) primary key, ts bigint not null)");
            }
            // the replica has not applied the first beat yet
            clock.advanceMillis(40);
            assertEquals(40_000, probe.measure("r1", replica).lagMicros());

            replicate(primary, replica);
            assertEquals(0, probe.measure("r1", replica).lagMicros(), "caught up: lag 0, not 'time since the last beat'");

            // replication stops; beats go on every 250 ms for 2 s
            long stoppedAt = clock.epochMicros();
            for (int i = 0; i < 8; i++) {
                clock.advanceMillis(250);
                probe.run(primary);
            }
            clock.advanceMillis(10);
            long lag = probe.measure("r1", replica).lagMicros();
            long lastApplied = stoppedAt - 40_000;
            assertEquals(clock.epochMicros() - lastApplied, lag, "since its last applied beat");

            replicate(primary, replica);
            assertEquals(0, probe.measure("r1", replica).lagMicros());
        }
    }

    @Test
    void heartbeatTableNotYetOnTheReplicaMeansItMissesEveryBeatSoFar() throws SQLException {
        String id = UUID.randomUUID().toString().substring(0, 8);
        try (Connection primary = h2("hb_p_" + id); Connection replica = h2("hb_missing_" + id)) {
            try (Statement s = replica.createStatement()) {
                s.execute("create table other (id int)");
            }
            HeartbeatProbe probe = new HeartbeatProbe("rwsplit_heartbeat", clock, Duration.ofMillis(250));
            assertEquals(0, probe.measure("r1", replica).lagMicros(), "nothing written yet: no known lag");
            probe.run(primary);
            clock.advanceMillis(300);
            assertEquals(300_000, probe.measure("r1", replica).lagMicros());
        }
    }

    private static void replicate(Connection primary, Connection replica) throws SQLException {
        try (Statement p = primary.createStatement(); Statement r = replica.createStatement();
             var rs = p.executeQuery("select id, ts from rwsplit_heartbeat")) {
            while (rs.next()) {
                r.execute("replace into rwsplit_heartbeat (id, ts) values ('" + rs.getString(1) + "', " + rs.getLong(2) + ")");
            }
        }
    }

    @Test
    void defaultsAreDocumentedValues() {
        assertEquals(Duration.ofMillis(250), HealthConfig.DEFAULTS.probeInterval());
        assertEquals("auto", HealthConfig.DEFAULTS.lagProbe());
    }
}
