package io.rwsplit.internal.route;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.position.MariaDbGtidPosition;
import io.rwsplit.spi.ConsistencyStore;
import io.rwsplit.spi.LagSample;
import io.rwsplit.testing.H2Server;

/**
 * The consistency gate of one logical connection, on its own: where a read the policy would send to a replica goes
 * under each consistency level (any replica, one that applied the session's last write, one made to wait for it, one
 * within a staleness bound, or the primary), what it opens on the way, and what it records of a committed write.
 * Time is the harness's fake clock; the replicas' GTID waits are H2 functions that answer at once.
 */
class ConsistencyGateTest {

    private static final RouteReason ANY_REPLICA = RouteReason.REPLICA_READ;
    private static final MariaDbGtidPosition WRITE = MariaDbGtidPosition.parse("0-1-7");

    Servers servers;
    private PhysicalConnections physical;

    @AfterEach
    void close() throws SQLException {
        if (physical != null) {
            physical.releaseAll();
        }
        servers.close();
    }

    /** The gate of a new logical connection of {@code session}, wired as {@link ConnectionRouting} wires it. */
    private ConsistencyGate gate(SessionRouting session) {
        Served served = new Served(null, session);
        ConsistencyGate gate = new ConsistencyGate(servers.router, served);
        TransactionTracker tx = new TransactionTracker(served, servers.router.transactionStatus(), false, gate);
        physical = new PhysicalConnections(servers.router, tx, new ConnectionSettings(), new ConnectionSession(servers.router));
        gate.connections(physical);
        return gate;
    }

    /** A session at {@code level}, whose consistency state exists from the start ({@link LazyConsistencyGateTest}: not). */
    SessionRouting session(Consistency level) throws SQLException {
        if (servers == null) {
            servers = new Servers(2, "round_robin", true);
        }
        return servers.session(level);
    }

    private long now() {
        return servers.clock.epochMicros();
    }

    /** Replica {@code index} measured {@code millis} behind (in rotation up to Servers' max_lag, 1 s). */
    private void lag(int index, long millis) {
        servers.set.probed(servers.nodes.get(index), LagSample.of(millis * 1_000), null);
    }

    private String openReplica() {
        return physical.replica().node() == null ? null : physical.replica().node().name();
    }

    private int replicaConnectionsLent() {
        return servers.replicas.stream().mapToInt(r -> r.handedOut.size()).sum();
    }

    // ------------------------------------------------------------------ levels that need no replica state

    @Test
    void aSessionWithoutConsistencyStateReadsWhereThePolicySentIt() throws SQLException {
        servers = new Servers(2, "round_robin", true);
        assertEquals(ANY_REPLICA, gate(new SessionRouting()).read(ANY_REPLICA, false));
        assertNull(openReplica(), "the gate opens nothing: the policy's replica is connected later");
    }

    @Test
    void anEventualReadIgnoresTheSessionsWrites() throws SQLException {
        SessionRouting session = session(Consistency.eventual());
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        assertEquals(RouteReason.REPLICA_HINT, gate(session).read(RouteReason.REPLICA_HINT, false), "the policy's reason");
        assertNull(openReplica());
    }

    @Test
    void aStrongReadGoesToThePrimary() throws SQLException {
        ConsistencyGate gate = gate(session(Consistency.strong()));
        assertEquals(RouteReason.STRONG_CONSISTENCY, gate.read(ANY_REPLICA, false));
        assertNull(openReplica());
    }

    @Test
    void aReadYourWritesReadWithNothingToHonourGoesToAnyReplica() throws SQLException {
        assertEquals(ANY_REPLICA, gate(session(Consistency.readYourWrites())).read(ANY_REPLICA, false));
        assertNull(openReplica());
    }

    // ------------------------------------------------------------------ read-your-writes by time

    @Test
    void aWriteWithoutAPositionKeepsReadsOnThePrimaryForTheWindowAndIsThenSettled() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        session.consistency().committed(ConsistencyToken.withoutPosition(now()));
        ConsistencyGate gate = gate(session);
        assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, gate.read(ANY_REPLICA, false));
        servers.clock.advanceMillis(1_999);
        assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, gate.read(ANY_REPLICA, false), "the window is 2 s");
        servers.clock.advanceMillis(1);
        assertEquals(ANY_REPLICA, gate.read(ANY_REPLICA, false));
        assertNull(session.consistency().requirement(), "every replica has it now: nothing left to honour");
        assertNull(openReplica());
    }

    @Test
    void whileThePrimaryIsSuspectAWriteWithoutAPositionKeepsReadsOnThePrimaryPastTheWindow() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        session.consistency().committed(ConsistencyToken.withoutPosition(now()));
        servers.clock.advanceMillis(3_000);
        servers.router.primaryConnectionFailed();   // a failover may be under way: lag figures prove nothing
        assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, gate(session).read(ANY_REPLICA, false));
        assertNotNull(session.consistency().requirement(), "still to be honoured");
    }

    @Test
    void aScopeWhoseStateCannotBeReadReadsFromThePrimary() throws SQLException {
        ConsistencyStore unreachable = new ConsistencyStore() {
            @Override
            public ConsistencyToken read(String scope) {
                throw new IllegalStateException("simulated: the store is unreachable");
            }

            @Override
            public void record(String scope, ConsistencyToken write) {
                throw new IllegalStateException("simulated: the store is unreachable");
            }
        };
        servers = new Servers(2, "round_robin", Map.of(RwSplitSettings.CONSISTENCY_STORE, unreachable));
        SessionRouting session = servers.session(Consistency.readYourWrites());
        session.consistency().scope("user-1");
        assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, gate(session).read(ANY_REPLICA, false));
        assertTrue(session.consistency().stateUnknown());
        assertNull(openReplica());
    }

    // ------------------------------------------------------------------ a session's first read without its state

    /** The reasons of a script of reads and writes by a reader session and a writer session of the same unit. */
    private List<RouteReason> readerScript(SessionRouting reader, boolean byPosition) throws SQLException {
        SessionRouting writer = servers.session(Consistency.readYourWrites());
        List<RouteReason> reasons = new java.util.ArrayList<>();
        ConsistencyGate gate = gate(reader);
        writer.consistency().committed(byPosition ? ConsistencyToken.of(WRITE, now()) : ConsistencyToken.withoutPosition(now()));
        reasons.add(gate.read(ANY_REPLICA, false));   // the unit's write: its position, or its time window
        reasons.add(gate.read(ANY_REPLICA, false));
        servers.clock.advanceMillis(2_000);   // past the window
        reasons.add(gate.read(ANY_REPLICA, false));
        reasons.add(gate.read(ANY_REPLICA, false));
        writer.consistency().committed(byPosition ? ConsistencyToken.of(MariaDbGtidPosition.parse("0-1-8"), now())
                : ConsistencyToken.withoutPosition(now()));
        reasons.add(gate.read(ANY_REPLICA, false));
        reader.consistency().committed(byPosition ? ConsistencyToken.of(MariaDbGtidPosition.parse("0-1-9"), now())
                : ConsistencyToken.withoutPosition(now()));
        reasons.add(gate.read(ANY_REPLICA, false));
        servers.clock.advanceMillis(2_000);
        reasons.add(gate.read(ANY_REPLICA, false));
        return reasons;
    }

    @Test
    void aSessionWhoseStateIsMadeWhenNeededRoutesEveryReadAsOneMadeFromTheStart() throws SQLException {
        for (boolean byPosition : new boolean[] {false, true}) {
            servers = new Servers(2, "round_robin", true);
            List<RouteReason> fromTheStart = readerScript(servers.session(Consistency.readYourWrites()), byPosition);
            physical.releaseAll();
            servers.close();
            servers = new Servers(2, "round_robin", true);
            SessionRouting lazy = servers.lazySession();
            assertEquals(fromTheStart, readerScript(lazy, byPosition), byPosition ? "by position" : "by time");
            physical.releaseAll();
            servers.close();
        }
        servers = new Servers(2, "round_robin", true);
    }

    @Test
    void aSessionThatOnlyReadsAtTheDefaultsMakesNoConsistencyStateAndStillSeesTheUnitsWrites() throws SQLException {
        servers = new Servers(2, "round_robin", true);
        SessionRouting writer = servers.session(Consistency.readYourWrites());
        writer.consistency().committed(ConsistencyToken.withoutPosition(now()));
        SessionRouting reader = servers.lazySession();
        ConsistencyGate gate = gate(reader);
        assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, gate.read(ANY_REPLICA, false), "within the unit's window");
        assertFalse(Servers.consistencyMade(reader), "its first read made no state");
        servers.clock.advanceMillis(2_000);
        assertEquals(ANY_REPLICA, gate.read(ANY_REPLICA, false));
        assertTrue(Servers.consistencyMade(reader), "a second read makes it, with what the first left");
        assertNull(reader.consistency().requirement(), "the first read's requirement, settled since");
    }

    @Test
    void aSessionOfASessionScopeUnitMakesItsStateAtItsFirstReadAndReportsTheScopesReasons() throws SQLException {
        servers = new Servers(2, "round_robin", Map.of(RwSplitSettings.CONSISTENCY_SCOPE, "session"));
        assertEquals(io.rwsplit.internal.consistency.CausalReasons.SCOPE, servers.lazySession().reasons(),
                "a session that read nothing yet: its state's answer");
        SessionRouting reader = servers.lazySession();
        SessionRouting writer = servers.lazySession();
        writer.consistency().committed(ConsistencyToken.withoutPosition(now()));
        assertEquals(ANY_REPLICA, gate(reader).read(ANY_REPLICA, false), "another session's write: not this scope's");
        assertTrue(Servers.consistencyMade(reader), "no first read without the state outside the unit scope");
        assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, gate(writer).read(ANY_REPLICA, false), "its own write");
    }

    /** A scope resolver whose answers a test sets, counting how often it is asked. */
    private static final class Answers implements io.rwsplit.spi.ScopeResolver {
        String scope;
        ConsistencyToken carried;
        int asked;

        @Override
        public String resolveScope() {
            asked++;
            return scope;
        }

        @Override
        public ConsistencyToken resolveRequirement() {
            asked++;
            return carried;
        }
    }

    /**
     * The reasons of three reads by a new session, after a write of scope "user-1" 1.5 s before its first (the unit's
     * too), its resolver naming {@code scope} and a requirement of now if {@code carried}; then how often it was asked.
     */
    private List<Object> resolverScript(java.util.function.Supplier<SessionRouting> newReader, Answers answers,
                                        String scope, boolean carried) throws SQLException {
        SessionRouting writer = servers.session(Consistency.readYourWrites());
        writer.consistency().scope("user-1");
        writer.consistency().committed(ConsistencyToken.withoutPosition(now()));
        servers.clock.advanceMillis(1_500);
        answers.scope = scope;
        answers.carried = carried ? ConsistencyToken.withoutPosition(now()) : null;   // from another instance
        answers.asked = 0;
        ConsistencyGate gate = gate(newReader.get());
        List<Object> seen = new ArrayList<>();
        seen.add(gate.read(ANY_REPLICA, false));
        servers.clock.advanceMillis(1_000);   // past the write's window, not past the carried one's
        seen.add(gate.read(ANY_REPLICA, false));
        servers.clock.advanceMillis(1_000);
        seen.add(gate.read(ANY_REPLICA, false));
        seen.add(answers.asked);
        return seen;
    }

    @Test
    void withAScopeResolverASessionWhoseStateIsMadeWhenNeededRoutesAsOneMadeFromTheStartAndAsksItOnce()
            throws SQLException {
        String[] scopes = {null, null, "user-1"};
        boolean[] carried = {false, true, false};
        List<List<Object>> expected = List.of(
                List.of(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, ANY_REPLICA, ANY_REPLICA, 2),
                List.of(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, ANY_REPLICA, 2),
                List.of(RouteReason.READ_YOUR_WRITES_PRIMARY, ANY_REPLICA, ANY_REPLICA, 2));
        for (int c = 0; c < scopes.length; c++) {
            String what = scopes[c] != null ? "a scope named" : carried[c] ? "a requirement carried" : "nothing named";
            for (boolean lazy : new boolean[] {false, true}) {
                Answers answers = new Answers();
                servers = new Servers(2, "round_robin", Map.of(RwSplitSettings.SCOPE_RESOLVER, answers));
                assertEquals(expected.get(c), resolverScript(lazy ? servers::lazySession
                        : () -> servers.session(Consistency.readYourWrites()), answers, scopes[c], carried[c]),
                        what + (lazy ? ", state made when needed" : ", state made from the start")
                                + " (the resolver asked once for each answer)");
                physical.releaseAll();
                servers.close();
            }
        }
        servers = new Servers(2, "round_robin", true);
    }

    @Test
    void aSessionUnderAScopeResolverMakesItsStateAtItsFirstReadWhichAsksTheResolver() throws SQLException {
        Answers answers = new Answers();
        servers = new Servers(2, "round_robin", Map.of(RwSplitSettings.SCOPE_RESOLVER, answers));
        SessionRouting reader = servers.lazySession();
        assertFalse(Servers.consistencyMade(reader));
        assertEquals(ANY_REPLICA, gate(reader).read(ANY_REPLICA, false));
        assertTrue(Servers.consistencyMade(reader), "the resolver's answers are the state's to keep");
        assertEquals(2, answers.asked);
    }

    // ------------------------------------------------------------------ read-your-writes by position

    @Test
    void aRequirementThatCannotBeTrustedReadsFromThePrimaryWithoutAskingAReplica() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        servers.router.causal().observed(0, WRITE, servers.set.epochs().current(0));   // r1 has everything
        session.consistency().require(ConsistencyToken.untrusted(now()));
        assertEquals(RouteReason.UNTRUSTED_TOKEN_PRIMARY, gate(session).read(ANY_REPLICA, false));
        assertNull(openReplica());
        assertEquals(0, replicaConnectionsLent(), "no replica waits for a write nobody can name");
    }

    @Test
    void whileAFailoverMayBeUnderWayAReplicaPositionIsNotTrustedForAWriteFromBefore() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        servers.router.primaryConnectionFailed();
        // r2 follows a new primary already: its position passes the write's without containing it
        servers.router.causal().observed(1, MariaDbGtidPosition.parse("0-2-9"), servers.set.epochs().current(1));
        assertEquals(RouteReason.UNIT_CAUSAL_BEHIND_PRIMARY, gate(session).read(ANY_REPLICA, false));
        assertNull(openReplica(), "the primary path waits for the monitor's look, which tells a lost write");
    }

    @Test
    void aReplicaKnownToHaveAppliedTheWriteIsOpenedForTheRead() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        servers.router.causal().observed(1, WRITE, servers.set.epochs().current(1));   // r2 only
        assertEquals(RouteReason.UNIT_CAUSAL_REPLICA_CAUGHT_UP, gate(session).read(ANY_REPLICA, false));
        assertEquals("r2", openReplica());
    }

    @Test
    void aNamedScopeReportsItsOwnReasons() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        session.consistency().scope("user-1");
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        servers.router.causal().observed(0, WRITE, servers.set.epochs().current(0));
        assertEquals(RouteReason.CAUSAL_REPLICA_CAUGHT_UP, gate(session).read(ANY_REPLICA, false));
        assertEquals("r1", openReplica());
    }

    @Test
    void whenNoReplicaCanCatchUpInTimeTheReadGoesToThePrimaryWithoutWaiting() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        lag(0, 500);
        lag(1, 500);   // in rotation (below max_lag), but 500 ms is more than the 200 ms wait
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        assertEquals(RouteReason.UNIT_CAUSAL_BEHIND_PRIMARY, gate(session).read(ANY_REPLICA, false));
        assertNull(openReplica());
        assertEquals(0, replicaConnectionsLent());
    }

    @Test
    void aReplicaThatCanCatchUpIsMadeToWaitAndIsThenKnownToHaveAppliedTheWrite() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        gtidWaits("applied");
        lag(0, 500);
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        ConsistencyGate gate = gate(session);
        assertEquals(RouteReason.UNIT_CAUSAL_WAIT, gate.read(ANY_REPLICA, false));
        assertEquals("r2", openReplica(), "the one that can apply it within the wait");
        assertEquals(1, waitsOn(1));
        assertEquals(RouteReason.UNIT_CAUSAL_REPLICA_CAUGHT_UP, gate.read(ANY_REPLICA, false));
        assertEquals(1, waitsOn(1), "no second wait");
        assertEquals(0, waitsOn(0));
        assertTrue(servers.router.causal().applied(1, WRITE));
    }

    @Test
    void aWaitThatTimesOutSendsTheReadToThePrimaryAndTheNextReadDoesNotWaitAgain() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        gtidWaits("timedOut");
        servers.down(1);
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        ConsistencyGate gate = gate(session);
        assertEquals(RouteReason.UNIT_CAUSAL_TIMEOUT_PRIMARY, gate.read(ANY_REPLICA, false));
        assertEquals(WRITE.toString(), servers.replicas.get(0).read("select gtid from gtid_waits"), "r1 waited for the write");
        assertEquals(RouteReason.UNIT_CAUSAL_BEHIND_PRIMARY, gate.read(ANY_REPLICA, false),
                "a replica that just timed out cannot catch up at once");
        assertEquals(1, waitsOn(0), "no second wait");
        assertFalse(servers.router.causal().applied(0, WRITE));
    }

    @Test
    void withNoReplicaInRotationAReadWithAWriteToHonourIsLeftToTheFallback() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        servers.down(0);
        servers.down(1);
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        assertEquals(ANY_REPLICA, gate(session).read(ANY_REPLICA, false), "connecting finds no replica and falls back");
        assertNull(openReplica());
    }

    @Test
    void aReadWithAWriteToHonourThatFoundNoReplicaIsNotServedByOneBackInRotationBeforeItConnects() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        servers.down(0);
        servers.down(1);
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        assertEquals(ANY_REPLICA, gate(session).read(ANY_REPLICA, false));
        servers.up(0);   // the monitor brings both back between the gate's look and the read's connect
        servers.up(1);
        assertNull(physical.replica().serve(false), "neither is known to have applied the write: no second look");
        assertEquals(0, replicaConnectionsLent());
        physical.replica().statementStarting();
        assertNotNull(physical.replica().serve(false), "the next statement looks again");
    }

    @Test
    void aReadWithAWriteToHonourWhoseReplicasCouldNotBeOpenedIsNotServedByOneThatCanBeBeforeItConnects()
            throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        lag(0, 100);
        lag(1, 100);   // both can catch up within the wait
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        for (H2Server replica : servers.replicas) {
            replica.lendFails = () -> new SQLException("simulated: refused", "08004");
        }
        assertEquals(ANY_REPLICA, gate(session).read(ANY_REPLICA, false), "none could be opened: left to the fallback");
        for (H2Server replica : servers.replicas) {
            replica.lendFails = null;
        }
        servers.up(0);
        servers.up(1);
        assertNull(physical.replica().serve(false), "a replica opened now would serve the read without its wait");
        assertEquals(0, replicaConnectionsLent());
    }

    @Test
    void aReadInATransactionThatFoundNoReplicaKeepsTheTransactionOnThePrimary() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        servers.down(0);
        servers.down(1);
        session.consistency().committed(ConsistencyToken.of(WRITE, now()));
        assertEquals(RouteReason.READ_ONLY_TRANSACTION, gate(session).read(RouteReason.READ_ONLY_TRANSACTION, true));
        servers.up(0);
        servers.up(1);
        physical.replica().statementStarting();   // the transaction's next statement
        assertNull(physical.replica().serve(true), "one consistent snapshot: the transaction stays on the primary");
    }

    // ------------------------------------------------------------------ bounded staleness

    @Test
    void aBoundedStalenessReadGoesToAReplicaWithinTheBound() throws SQLException {
        SessionRouting session = session(Consistency.boundedStaleness(Duration.ofMillis(100)));
        lag(0, 500);
        lag(1, 50);
        assertEquals(RouteReason.BOUNDED_STALENESS_REPLICA, gate(session).read(ANY_REPLICA, false));
        assertEquals("r2", openReplica());
    }

    @Test
    void aBoundedStalenessReadGoesToThePrimaryWhenEveryReplicaLagsMore() throws SQLException {
        SessionRouting session = session(Consistency.boundedStaleness(Duration.ofMillis(100)));
        lag(0, 500);
        lag(1, 101);
        assertEquals(RouteReason.STALENESS_BOUND_PRIMARY, gate(session).read(ANY_REPLICA, false));
        assertNull(openReplica());
        assertEquals(0, replicaConnectionsLent());
    }

    @Test
    void anOpenReplicaThatFellBehindTheBoundSendsTheReadToThePrimary() throws SQLException {
        SessionRouting session = session(Consistency.boundedStaleness(Duration.ofMillis(100)));
        lag(0, 500);
        ConsistencyGate gate = gate(session);
        assertEquals(RouteReason.BOUNDED_STALENESS_REPLICA, gate.read(ANY_REPLICA, true));
        assertEquals("r2", openReplica());
        lag(1, 200);   // still in rotation (below max_lag)
        assertEquals(RouteReason.STALENESS_BOUND_PRIMARY, gate.read(ANY_REPLICA, true));
        assertEquals("r2", openReplica(), "kept open: the transaction reads where it began");
    }

    @Test
    void aBoundedStalenessReadWithNoReplicaInRotationIsLeftToTheFallback() throws SQLException {
        SessionRouting session = session(Consistency.boundedStaleness(Duration.ofMillis(100)));
        servers.down(0);
        servers.down(1);
        assertEquals(RouteReason.BOUNDED_STALENESS_REPLICA, gate(session).read(ANY_REPLICA, false));
        assertNull(openReplica());
    }

    @Test
    void aBoundedStalenessReadThatFoundNoReplicaIsNotServedByOneBackInRotationBeforeItConnects() throws SQLException {
        SessionRouting session = session(Consistency.boundedStaleness(Duration.ofMillis(100)));
        servers.down(0);
        servers.down(1);
        assertEquals(RouteReason.BOUNDED_STALENESS_REPLICA, gate(session).read(ANY_REPLICA, false));
        servers.up(0);
        servers.up(1);
        lag(0, 900);   // back in rotation (below max_lag), beyond the bound
        lag(1, 900);
        assertNull(physical.replica().serve(false), "its lag was not held against the bound: no second look");
    }

    // ------------------------------------------------------------------ recording committed writes

    @Test
    void aCommittedWriteIsRecordedWithItsCommitTimeAndKeepsTheNextReadsOnThePrimary() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        ConsistencyGate gate = gate(session);
        physical.primary();
        gate.recordCommittedWrite(true);
        ConsistencyToken recorded = session.consistency().lastWrite();
        assertEquals(now(), recorded.commitTimeMicros());
        assertNull(recorded.positionOrNull(), "H2 has no positions: the time rule");
        assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, gate.read(ANY_REPLICA, false));
    }

    @Test
    void nothingIsRecordedWhenNoPrimaryConnectionIsOpen() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        gate(session).recordCommittedWrite(false);
        assertNull(session.consistency().lastWrite());
        assertEquals(0, servers.primary.handedOut.size(), "nor is one opened for it");
    }

    @Test
    void aWriteWhosePrimaryConnectionWasAlreadyTakenBackIsRecordedOnAnotherOneGivenBackAtOnce() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        ConsistencyGate gate = gate(session);
        physical.primary().close();   // as a JTA pool takes its connection back when the transaction completes
        gate.recordCommittedWrite(false);
        assertEquals(now(), session.consistency().lastWrite().commitTimeMicros());
        assertEquals(2, servers.primary.handedOut.size());
        assertTrue(servers.primary.handedOut.get(1).isClosed(), "given back");
    }

    @Test
    void aCommitWhosePositionCannotBeReadForAConnectionErrorIsRecordedWithoutOneAndMakesThePrimarySuspect()
            throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        ConsistencyGate gate = gate(session);
        servers.primary.productName = "MariaDB";    // a server with GTIDs: the position is read after the commit
        physical.primary();
        servers.primary.executionFails = true;
        assertFalse(servers.router.primarySuspect());
        gate.recordCommittedWrite(true);
        ConsistencyToken recorded = session.consistency().lastWrite();
        assertNull(recorded.positionOrNull());
        assertEquals(now(), recorded.commitTimeMicros(), "the time rule, on the primary");
        assertTrue(servers.router.primarySuspect(), "the connection may lead to another server now");
    }

    // ------------------------------------------------------------------ commit and position in one round trip

    @Test
    void withoutConsistencyStateTheCommitIsLeftToTheCaller() throws SQLException {
        servers = new Servers(2, "round_robin", true);
        ConsistencyGate gate = gate(new SessionRouting());
        assertFalse(gate.commitRecordingWrite(physical.primary()));
        assertEquals(0, servers.primary.commits.get(), "nothing committed");
    }

    @Test
    void aPrimaryThatReadsThePositionAfterTheCommitLeavesTheCommitToTheCaller() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        ConsistencyGate gate = gate(session);
        assertFalse(gate.commitRecordingWrite(physical.primary()));
        assertEquals(0, servers.primary.commits.get(), "nothing committed");
        assertNull(session.consistency().lastWrite());
    }

    @Test
    void aPostgresPrimaryCommitsAndReadsThePositionInOneRoundTrip() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        PostgresPrimary primary = new PostgresPrimary(null);
        assertTrue(gate(session).commitRecordingWrite(primary.connection));
        assertEquals(List.of("prepare select current_setting('synchronous_commit'); commit; select pg_current_wal_insert_lsn(),"
                + " current_setting('wal_block_size'), pg_current_wal_flush_lsn(),"
                + " substr(pg_walfile_name(pg_current_wal_insert_lsn()), 1, 8)", "execute", "commit"), primary.calls);
        ConsistencyToken recorded = session.consistency().lastWrite();
        assertEquals(LsnPosition.parse("0/3000060").asReplayPosition(8192), recorded.positionOrNull());
        assertEquals(now(), recorded.commitTimeMicros());
    }

    @Test
    void aPostgresCommitThatFailsThrowsAndRecordsNothing() throws SQLException {
        SessionRouting session = session(Consistency.readYourWrites());
        SQLException serialization = new SQLException("simulated: could not serialize access", "40001");
        PostgresPrimary primary = new PostgresPrimary(serialization);
        ConsistencyGate gate = gate(session);
        assertSame(serialization, assertThrows(SQLException.class, () -> gate.commitRecordingWrite(primary.connection)));
        assertEquals("execute", primary.calls.get(primary.calls.size() - 1), "no commit() after the server refused the commit");
        assertNull(session.consistency().lastWrite());
    }

    // ------------------------------------------------------------------ test doubles

    /**
     * Makes the replicas answer as MariaDB, whose GTID wait ({@code master_gtid_wait}) is a {@link GtidWaits} method
     * that answers at once and leaves a row in the replica's table {@code gtid_waits}.
     */
    private void gtidWaits(String answer) throws SQLException {
        for (H2Server replica : servers.replicas) {
            replica.productName = "MariaDB";
            replica.execute("create table gtid_waits (gtid varchar(100))");
            replica.execute("create alias master_gtid_wait for '" + GtidWaits.class.getName() + "." + answer + "'");
        }
    }

    /** How many GTID waits replica {@code index} was asked for. */
    private int waitsOn(int index) throws SQLException {
        return Integer.parseInt(servers.replicas.get(index).read("select count(*) from gtid_waits"));
    }

    /** MariaDB's {@code master_gtid_wait(gtid, timeout)}, as H2 functions (H2 passes the calling connection first). */
    public static final class GtidWaits {

        private GtidWaits() {
        }

        /** The position was applied (within the timeout). */
        public static int applied(Connection c, String gtid, BigDecimal timeoutSeconds) throws SQLException {
            asked(c, gtid);
            return 0;
        }

        /** The timeout passed first. */
        public static int timedOut(Connection c, String gtid, BigDecimal timeoutSeconds) throws SQLException {
            asked(c, gtid);
            return -1;
        }

        private static void asked(Connection c, String gtid) throws SQLException {
            try (var insert = c.prepareStatement("insert into gtid_waits values (?)")) {
                insert.setString(1, gtid);
                insert.executeUpdate();
            }
        }
    }

    /**
     * A PostgreSQL primary connection that commits in the round trip of {@code select <synchronous_commit>; commit; <positions>} and answers
     * the position 0/3000060 with 8 kB WAL pages, or refuses that commit with {@code commitFailure}.
     */
    private static final class PostgresPrimary {
        final List<String> calls = new ArrayList<>();
        final Connection connection;

        PostgresPrimary(SQLException commitFailure) {
            DatabaseMetaData md = fake(DatabaseMetaData.class, (name, args) -> switch (name) {
                case "getDatabaseProductName" -> "PostgreSQL";
                case "getDatabaseProductVersion" -> "16.4";
                case "getDatabaseMajorVersion" -> 16;
                default -> null;
            });
            ResultSet position = fake(ResultSet.class, (name, args) -> switch (name) {
                case "next" -> true;
                case "getString" -> (Integer) args[0] == 2 ? "8192" : "0/3000060";   // also the guard's setting
                default -> null;
            });
            int[] results = {0};
            PreparedStatement statement = fake(PreparedStatement.class, (name, args) -> switch (name) {
                case "execute" -> {
                    if (args != null && args.length > 0) {
                        throw new AssertionError("a prepared statement executed with SQL of its own: pgjdbc refuses that");
                    }
                    calls.add("execute");
                    if (commitFailure != null) {
                        throw commitFailure;
                    }
                    yield true;
                }
                case "getMoreResults" -> ++results[0] == 2;   // the guard's row, the commit's count, the position
                case "getResultSet" -> position;
                default -> null;
            });
            connection = fake(Connection.class, (name, args) -> switch (name) {
                case "getMetaData" -> md;
                case "prepareStatement" -> {
                    calls.add("prepare " + args[0]);
                    yield statement;
                }
                case "commit" -> {
                    calls.add("commit");
                    yield null;
                }
                default -> null;
            });
        }
    }
}
