package io.rwsplit.internal.replica;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.HealthConfig;
import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.consistency.CausalReads;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.replica.ReplicaMonitor;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.testing.FakeClock;

/**
 * A MariaDB failover as the monitor sees it through a multi-host primary URL ({@code sequential://p,r1}), with a
 * fake clock and scripted servers: once the old primary is gone the URL reaches replica 1 while it is still a
 * read-only replica that has not applied the last write (replica 2 has it), and only later, promoted and caught
 * up, writable. What reads must see is re-based on the new primary only then.
 */
class FailoverRebaseTest {

    /** What the server behind the primary URL answers now. */
    private record Server(String identity, boolean readOnly, String gtidCurrentPos, String gtidSlavePos) {
        Server(String identity, boolean readOnly, String gtidCurrentPos) {
            this(identity, readOnly, gtidCurrentPos, "");
        }
    }

    private final FakeClock clock = new FakeClock();
    private volatile Server behindPrimaryUrl = new Server("1@db:3307", false, "0-1-52");
    /** Whether the server behind the primary URL fails the question of its position (its connection breaks then). */
    private volatile boolean positionFails;
    private final ReplicaSet replicas = new ReplicaSet("failover", List.of(node(0, "replica1"), node(1, "replica2")),
            LoadBalancers.create("round_robin"), clock, io.rwsplit.internal.health.HealthPolicy.of(config()));
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "failover",
            replicas.epochs());
    private final ReplicaMonitor monitor = new ReplicaMonitor(replicas,
            List.of(replicaConfig("replica1"), replicaConfig("replica2")), config(), primaryUrl(), clock,
            causal::observed, asOfMicros -> causal.failoverSeen(asOfMicros)::changed);

    @AfterEach
    void stopMonitor() {
        monitor.close();
    }

    @Test
    void aReplicaReachedThroughThePrimaryUrlBeforeItsPromotionDoesNotLowerWhatReadsMustSee() {
        monitor.watchPrimary();
        clock.advanceMillis(10);
        causal.newSession().committed(write("0-1-53"));     // write 53: on the old primary and replica 2, not replica 1
        causal.observed(1, gtid("0-1-52"), replicas.epochs().current(1));   // replica 2's last probe was before it

        clock.advanceMillis(100);
        behindPrimaryUrl = new Server("2@db:3308", true, "0-1-52");      // the old primary died: the URL reaches replica 1
        monitor.watchPrimary();
        causal.observed(0, gtid("0-1-52"), replicas.epochs().current(0));

        GtidPosition need = causal.newSession().requirement().positionOrNull();
        assertEquals(gtid("0-1-53"), need, "a read-only replica is not the new primary: write 53 is still required");
        assertFalse(causal.applied(0, need), "replica 1 has not applied write 53");

        clock.advanceMillis(2_000);
        behindPrimaryUrl = new Server("2@db:3308", false, "0-1-53");     // promoted: caught up from replica 2, writable
        monitor.watchPrimary();
        causal.observed(1, gtid("0-1-53"), replicas.epochs().current(1));

        need = causal.newSession().requirement().positionOrNull();
        assertEquals(gtid("0-1-53"), need, "re-based on the promoted server, which has write 53");
        assertTrue(causal.applied(1, need), "replica 2, which has write 53, serves the read");
    }

    @Test
    void theFirstWritableServerWithAnotherIdentityReBasesOnceOnItsPosition() {
        monitor.watchPrimary();
        causal.observed(1, gtid("0-1-52"), replicas.epochs().current(1));
        behindPrimaryUrl = new Server("2@db:3308", true, "0-1-52");
        monitor.watchPrimary();
        assertTrue(causal.applied(1, gtid("0-1-52")), "nothing failed over yet: what replica 2 applied still counts");

        clock.advanceMillis(1_000);
        behindPrimaryUrl = new Server("2@db:3308", false, "0-1-60");
        monitor.watchPrimary();
        assertFalse(causal.applied(1, gtid("0-1-52")), "a failover: what replicas applied before is forgotten");
        assertEquals(gtid("0-1-60"), causal.newSession().requirement().positionOrNull());

        causal.observed(1, gtid("0-2-61"), replicas.epochs().current(1));
        monitor.watchPrimary();
        assertTrue(causal.applied(1, gtid("0-1-60")), "the same primary seen again is no second failover");
    }

    /**
     * The monitor sees another server answer as the primary, and its connection breaks as it asks for the new primary's
     * position: the failover is looked at again at the next interval, not taken for seen (nothing would re-base what
     * reads must see, or look for a lost write, any more).
     */
    @Test
    void aFailoverWhosePositionCouldNotBeReadIsLookedAtAgainAtTheNextInterval() {
        monitor.watchPrimary();
        behindPrimaryUrl = new Server("2@db:3308", false, "0-1-60");
        positionFails = true;
        monitor.watchPrimary();
        assertEquals(null, causal.newSession().requirement(), "not re-based: its position is unknown");
        positionFails = false;
        clock.advanceMillis(1_000);
        monitor.watchPrimary();
        assertEquals(gtid("0-1-60"), causal.newSession().requirement().positionOrNull(), "re-based at the next look");
    }

    @Test
    void theMonitorTellsWhetherTheServerBehindThePrimaryUrlTakesWrites() {
        List<String> answers = new java.util.ArrayList<>();
        try (ReplicaMonitor watching = new ReplicaMonitor(replicas,
                List.of(replicaConfig("replica1"), replicaConfig("replica2")), config(), primaryUrl(), clock,
                causal::observed, asOfMicros -> causal.failoverSeen(asOfMicros)::changed,
                (writable, askedAt, address, identity) -> answers.add(writable + "@" + askedAt / 1_000_000))) {
            clock.advanceMillis(5);
            watching.watchPrimary();
            behindPrimaryUrl = new Server("2@db:3308", true, "0-1-52");
            clock.advanceMillis(5);
            watching.watchPrimary();
            behindPrimaryUrl = null;                                           // nothing answers the URL
            clock.advanceMillis(5);
            watching.watchPrimary();
            behindPrimaryUrl = new Server("2@db:3308", false, "0-1-53");
            clock.advanceMillis(5);
            watching.watchPrimary();
        }
        long start = clock.nanoTime() / 1_000_000 - 20;
        assertEquals(List.of("true@" + (start + 5), "false@" + (start + 10), "false@" + (start + 15),
                "true@" + (start + 20)), answers);
    }

    @Test
    void aFailoverToAServerWithoutTheUnitsLastWriteIsReportedOnceAtErrorWithBothPositions() {
        try (io.rwsplit.testing.LogCapture logs = io.rwsplit.testing.LogCapture.attach("io.rwsplit.consistency",
                ch.qos.logback.classic.Level.WARN)) {
            monitor.watchPrimary();
            causal.newSession().committed(write("0-1-53"));   // acknowledged by the old primary, on no replica yet
            clock.advanceMillis(1_000);
            behindPrimaryUrl = new Server("2@db:3308", false, "0-1-52");   // promoted without write 53
            monitor.watchPrimary();
            monitor.watchPrimary();                                        // the same new primary: no second report
            assertEquals(1, causal.lostWriteFailovers());
            io.rwsplit.internal.route.Router router = new io.rwsplit.internal.route.Router("failover", primaryUrl(),
                    replicas, io.rwsplit.internal.config.Fallback.PRIMARY, causal);
            assertEquals(1, router.statistics().lostWriteFailovers(), "the factory's statistics count it");
            List<String> errors = logs.lines().stream().filter(l -> l.startsWith("ERROR")).toList();
            assertEquals(1, errors.size(), String.join("\n", logs.lines()));
            assertTrue(errors.get(0).contains("0-1-52") && errors.get(0).contains("0-1-53"), errors.get(0));
        }
    }

    @Test
    void theSessionThatWroteALostWriteLearnsItOnceAndNewSessionsReadTheNewPrimary() {
        monitor.watchPrimary();
        io.rwsplit.internal.consistency.SessionConsistency writer = causal.newSession();
        writer.committed(write("0-1-53"));
        ConsistencyToken before = causal.newSession().lastWrite();    // a token handed out (a cookie) before
        io.rwsplit.internal.consistency.SessionConsistency inFlight = causal.newSession();
        inFlight.requirement();                                        // a read began before the change
        clock.advanceMillis(1_000);
        behindPrimaryUrl = new Server("2@db:3308", false, "0-1-52");   // promoted without write 53
        monitor.watchPrimary();

        writer.requirement();
        assertEquals(gtid("0-1-53"), writer.takeLostWrite().position(), "the session that wrote it learns it");
        writer.requirement();
        assertNull(writer.takeLostWrite(), "once");
        inFlight.requirement();
        assertEquals(gtid("0-1-53"), inFlight.takeLostWrite().position(), "a read in flight at the change");

        io.rwsplit.internal.consistency.SessionConsistency later = causal.newSession();
        later.requirement();
        assertNull(later.takeLostWrite(), "the unit was re-based: a new session reads the new primary's data");
        assertEquals(gtid("0-1-52"), later.requirement().positionOrNull());

        io.rwsplit.internal.consistency.SessionConsistency withToken = causal.newSession();
        withToken.require(before);
        withToken.requirement();
        assertEquals(gtid("0-1-53"), withToken.takeLostWrite().position(), "the token's holder learns it");
        io.rwsplit.internal.consistency.SessionConsistency sameTokenAgain = causal.newSession();
        sameTokenAgain.require(before);
        sameTokenAgain.requirement();
        assertNull(sameTokenAgain.takeLostWrite(), "once per lost write: the cookie sent again reads on");
    }

    @Test
    void aLossIsFoundByWhatTheNewPrimaryReplicatedEvenAfterItsOwnWritesMovedItsPositionPastTheLostOne() {
        try (io.rwsplit.testing.LogCapture logs = io.rwsplit.testing.LogCapture.attach("io.rwsplit.consistency",
                ch.qos.logback.classic.Level.WARN)) {
            monitor.watchPrimary();
            causal.newSession().committed(write("0-1-53"));
            clock.advanceMillis(1_000);
            // promoted without write 53, then written to (0-2-54..60) before the monitor first saw it
            behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-52");
            monitor.watchPrimary();
            assertEquals(1, causal.lostWriteFailovers());
            List<String> errors = logs.lines().stream().filter(l -> l.startsWith("ERROR")).toList();
            assertEquals(1, errors.size(), String.join("\n", logs.lines()));
            assertTrue(errors.get(0).contains("up to 0-1-52") && errors.get(0).contains("0-1-53"), errors.get(0));
            assertEquals(gtid("0-2-60"), causal.newSession().requirement().positionOrNull(),
                    "reads are re-based on the new primary's position now");
        }
    }

    @Test
    void aLostWriteIsReportedEvenWhenALaterCommitsPositionCouldNotBeRead() {
        monitor.watchPrimary();
        causal.newSession().committed(write("0-1-53"));   // acknowledged by the old primary, on no replica yet
        clock.advanceMillis(10);
        // the primary died under the next commit: its position could not be read, its readers use the time rule
        causal.newSession().committed(ConsistencyToken.withoutPosition(clock.epochMicros()));
        clock.advanceMillis(1_000);
        behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-52");
        monitor.watchPrimary();
        assertEquals(1, causal.lostWriteFailovers(), "write 53 is known to be lost");
    }

    @Test
    void aPromotedServerThatReplicatedTheUnitsLastWriteLostNothingWhateverItsPositionSays() {
        monitor.watchPrimary();
        causal.newSession().committed(write("0-1-53"));
        clock.advanceMillis(1_000);
        behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-53");
        monitor.watchPrimary();
        assertEquals(0, causal.lostWriteFailovers());
    }

    @Test
    void withLostWritesLogAReadThatNeededALostWriteIsCountedAndLoggedInsteadOfFailing() {
        CausalReads logging = new CausalReads(ConsistencyRuntime.create(Map.of("hibernate.rwsplit.lost_writes", "log"),
                clock), "failover", replicas.epochs());
        try (io.rwsplit.testing.LogCapture logs = io.rwsplit.testing.LogCapture.attach("io.rwsplit.consistency",
                ch.qos.logback.classic.Level.WARN)) {
            assertFalse(logging.lostWriteRead(lost("0-1-53")), "log: the read goes on");
            assertEquals(1, logging.lostWriteReads());
            assertTrue(logs.lines().stream().anyMatch(l -> l.startsWith("WARN") && l.contains("0-1-53")
                    && l.contains("lost_writes=log")), String.join("\n", logs.lines()));
        }
        assertTrue(causal.lostWriteRead(lost("0-1-53")), "the default fails the read");
        assertEquals(1, causal.lostWriteReads());
    }

    @Test
    void aFailoverToAServerThatHasTheUnitsLastWriteLosesNothing() {
        monitor.watchPrimary();
        causal.newSession().committed(write("0-1-53"));
        clock.advanceMillis(1_000);
        behindPrimaryUrl = new Server("2@db:3308", false, "0-1-53");
        monitor.watchPrimary();
        assertEquals(0, causal.lostWriteFailovers());
    }

    @Test
    void aWriteWhosePositionCouldNotBeReadAsThePrimaryWentAwayMayBeLostItsSessionIsToldOnceAndTheFailoverCounted() {
        try (io.rwsplit.testing.LogCapture logs = io.rwsplit.testing.LogCapture.attach("io.rwsplit.consistency",
                ch.qos.logback.classic.Level.WARN);
                ReplicaMonitor answering = answeringMonitor()) {
            answering.watchPrimary();
            io.rwsplit.internal.consistency.SessionConsistency writer = causal.newSession();
            writer.committed(write("0-1-53"));
            clock.advanceMillis(10);
            // the old primary acknowledged the next commit and was killed before its position could be read
            writer.committed(causal.unconfirmedCommit(new java.sql.SQLException("Connection reset", "08S01")));
            clock.advanceMillis(100);
            behindPrimaryUrl = new Server("2@db:3308", true, "0-1-53");     // the URL reaches read-only replica 1
            answering.watchPrimary();
            clock.advanceMillis(1_000);
            behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-53");   // promoted: it has write 53
            answering.watchPrimary();

            assertEquals(1, causal.lostWriteFailovers(), "whether the last write survived is unknown: reported");
            List<String> errors = logs.lines().stream().filter(l -> l.startsWith("ERROR")).toList();
            assertEquals(1, errors.size(), String.join("\n", logs.lines()));
            assertTrue(errors.get(0).contains("may have been lost") && errors.get(0).contains("0-1-53"), errors.get(0));
            writer.requirement();
            io.rwsplit.internal.consistency.LostWrite told = writer.takeLostWrite();
            assertFalse(told.certain(), "its position is unknown");
            assertTrue(told.describe().contains("position unread"), told.describe());
            writer.requirement();
            assertNull(writer.takeLostWrite(), "once");
            io.rwsplit.internal.consistency.SessionConsistency later = causal.newSession();
            later.requirement();
            assertNull(later.takeLostWrite(), "a session begun after the re-base reads the new primary's data");
        }
    }

    @Test
    void aWriteWhosePositionCouldNotBeReadCountsForNothingOnceTheSamePrimaryAnsweredAfterIt() {
        try (ReplicaMonitor answering = answeringMonitor()) {
            answering.watchPrimary();
            causal.newSession().committed(write("0-1-53"));
            clock.advanceMillis(10);
            causal.newSession().committed(causal.unconfirmedCommit(new java.sql.SQLException("Connection reset", "08S01")));
            clock.advanceMillis(250);
            answering.watchPrimary();                       // the old primary outlived the broken connection
            clock.advanceMillis(1_000);
            behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-53");
            answering.watchPrimary();
            assertEquals(0, causal.lostWriteFailovers(), "write 53 survived, and the later one was not lost in a crash");
        }
    }

    @Test
    void aCommitWhosePositionComesBackEmptyAfterPositionsWereReadMayHaveBeenLost() {
        try (ReplicaMonitor answering = answeringMonitor()) {
            answering.watchPrimary();
            causal.newSession().committed(causal.capture(committedOn("0-1-53", "0")));
            clock.advanceMillis(10);
            // the driver re-opened the connection in place on replica 1 after the commit: @@last_gtid is empty there
            causal.newSession().committed(causal.capture(committedOn("", "1")));
            clock.advanceMillis(1_000);
            behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-53");
            answering.watchPrimary();
            assertEquals(1, causal.lostWriteFailovers(), "the second write's position is unknown");
        }
    }

    @Test
    void aServerThatNeverGavePositionsMakesNoWriteUnconfirmed() {
        try (ReplicaMonitor answering = answeringMonitor()) {
            answering.watchPrimary();
            causal.newSession().committed(causal.capture(committedOn("", "0")));   // no binary log: never a position
            clock.advanceMillis(1_000);
            behindPrimaryUrl = new Server("2@db:3308", false, "0-2-60", "0-1-53");
            answering.watchPrimary();
            assertEquals(0, causal.lostWriteFailovers());
        }
    }

    /**
     * A MariaDB connection that has just committed: {@code select @@last_gtid, @@read_only} answers {@code lastGtid} and
     * {@code readOnly}.
     */
    private static Connection committedOn(String lastGtid, String readOnly) {
        DatabaseMetaData meta = fake(DatabaseMetaData.class, (name, args) -> switch (name) {
            case "getDatabaseProductName" -> "MariaDB";
            case "getDatabaseProductVersion" -> "10.11.6-MariaDB";
            default -> null;
        });
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> meta;
            case "createStatement" -> fake(Statement.class, (s, sArgs) -> s.equals("executeQuery")
                    ? io.rwsplit.testing.JdbcFakes.oneRow(lastGtid, readOnly) : null);
            default -> null;
        });
    }

    /** A monitor wired as the routing runtime wires it: a writable answer tells the causal reads when it was asked. */
    private ReplicaMonitor answeringMonitor() {
        return new ReplicaMonitor(replicas, List.of(replicaConfig("replica1"), replicaConfig("replica2")), config(),
                primaryUrl(), clock, causal::observed, asOfMicros -> causal.failoverSeen(asOfMicros)::changed, (writable, askedAt, address, identity) -> {
                    if (writable) {
                        causal.primaryAnswered(askedAt);
                    }
                });
    }

    private static io.rwsplit.internal.consistency.LostWrite lost(String gtid) {
        return new io.rwsplit.internal.consistency.LostWrite(gtid(gtid), 0, 1);
    }

    private ConsistencyToken write(String gtid) {
        return ConsistencyToken.of(gtid(gtid), clock.epochMicros());
    }

    private static GtidPosition gtid(String text) {
        return GtidPosition.parseMariaDb(text);
    }

    private static HealthConfig config() {
        return new HealthConfig("reachability", Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofSeconds(1),
                2, Duration.ofMillis(100), "rwsplit_heartbeat", 0, Duration.ofSeconds(1));
    }

    private static ReplicaNode node(int index, String name) {
        return new ReplicaNode(index, name, 1, 1, null, true);
    }

    private static ReplicaConfig replicaConfig(String name) {
        return new ReplicaConfig(name, "jdbc:mariadb://127.0.0.1/" + name, null, null, 1, 1, null);
    }

    /** The primary URL: a connection to whichever server {@link #behindPrimaryUrl} is when it is acquired. */
    private PrimarySource primaryUrl() {
        return new PrimarySource() {
            @Override
            public Connection acquire() throws java.sql.SQLException {
                Server server = behindPrimaryUrl;
                if (server == null) {
                    throw new java.sql.SQLNonTransientConnectionException("simulated: connection refused", "08001");
                }
                return connection(server);
            }

            @Override
            public void release(Connection connection) {
            }
        };
    }

    /**
     * Answers the monitor's queries as {@code server}: its position, and its identity unless the query asks for
     * it only from a writable server ({@code @@read_only} in the query) and the server is read-only.
     */
    private Connection connection(Server server) {
        DatabaseMetaData md = fake(DatabaseMetaData.class, (name, args) ->
                name.equals("getDatabaseProductName") ? "MariaDB" : null);
        return fake(Connection.class, (name, args) -> switch (name) {
            case "getMetaData" -> md;
            case "createStatement" -> fake(Statement.class, (sName, sArgs) -> switch (sName) {
                case "executeQuery" -> {
                    if (positionFails && ((String) sArgs[0]).contains("@@gtid_current_pos")) {
                        throw new java.sql.SQLNonTransientConnectionException("simulated: connection reset", "08S01");
                    }
                    yield rows(answer(server, (String) sArgs[0]));
                }
                default -> null;
            });
            default -> null;
        });
    }

    private static String answer(Server server, String sql) {
        if (sql.contains("@@gtid_current_pos")) {
            return server.gtidCurrentPos();
        }
        if (sql.contains("@@gtid_slave_pos")) {
            return server.gtidSlavePos();
        }
        if (sql.contains("@@server_id")) {
            return sql.contains("@@read_only") && server.readOnly() ? null : server.identity();
        }
        return null;
    }

    private static ResultSet rows(String value) {
        return io.rwsplit.testing.JdbcFakes.oneRow(value);
    }
}
