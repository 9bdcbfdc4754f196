package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.LogCapture;

/**
 * Writes committed on a new primary before the monitor sees the failover, with a fake clock: a primary URL that leads
 * to the promoted server at once (pgjdbc's or MariaDB Connector/J's host list, a proxy, a moved address) lets sessions
 * write there first. Those writes are the new primary's own, not writes the failover lost: nobody is told of a loss
 * and no lossy failover is counted; a write of the old primary that no replica had is still found missing, also
 * behind the new primary's later writes, and told to every session whose reads required it.
 */
class FailoverSeenLateTest {

    private final FakeClock clock = new FakeClock();
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default",
            new ServerEpochs(2));
    /** A lossy failover logs at ERROR, as it should: not shown here. */
    private final LogCapture quiet = LogCapture.attach("io.rwsplit.consistency", ch.qos.logback.classic.Level.OFF);

    @AfterEach
    void restore() {
        quiet.close();
    }

    private static LsnPosition lsn(long lsn, long timeline) {
        return LsnPosition.of(lsn).onTimeline(timeline);
    }

    private SessionConsistency writes(GtidPosition position) {
        SessionConsistency session = causal.newSession();
        session.committed(ConsistencyToken.of(position, clock.epochMicros()));
        clock.advanceMillis(10);
        return session;
    }

    /** The monitor sees the new primary at {@code newPrimary}, which replicated {@code survived} before its promotion. */
    private void seen(GtidPosition newPrimary, GtidPosition survived) {
        long asOf = clock.epochMicros();
        clock.advanceMillis(1);
        causal.primaryChanged(newPrimary, survived, asOf);
        clock.advanceMillis(10);
    }

    private static LostWrite toldAtNextRead(SessionConsistency session) {
        session.requirement();
        return session.takeLostWrite();
    }

    @Test
    void aWriteOnTheNewPrimaryBeforeTheFailoverIsSeenIsNotALostWrite() {
        SessionConsistency old = writes(lsn(0x7000, 1));   // replicated: the switch point is 0/7000
        SessionConsistency early = writes(lsn(0x7500, 2));   // on the promoted server, before the monitor's look
        seen(lsn(0x8000, 2), LsnPosition.of(0x7000));

        assertNull(toldAtNextRead(early), "its write is in the new primary");
        assertNull(toldAtNextRead(old));
        assertNull(toldAtNextRead(causal.newSession()));
        assertEquals(0, causal.lostWriteFailovers(), "no loss counted or logged");
        assertEquals(LsnPosition.of(0x8000), early.requirement().positionOrNull(), "re-based: the new primary has it");
    }

    @Test
    void onMariaDbTheServerIdOfTheWritesGtidSaysTheNewPrimaryWroteIt() {
        writes(GtidPosition.parseMariaDb("0-1-100"));
        SessionConsistency early = writes(GtidPosition.parseMariaDb("0-2-101"));
        seen(GtidPosition.parseMariaDb("0-2-102"), GtidPosition.parseMariaDb("0-1-100"));

        assertNull(toldAtNextRead(early));
        assertEquals(0, causal.lostWriteFailovers());
    }

    /**
     * The old primary's write 0/7100 no standby had, then a write on the promoted server at 0/7500 (timeline 2), whose
     * numbering passes it. The loss is found; the session that wrote it is told of it, and so is the one that wrote on
     * the new primary: at the unit scope (the default) its requirement, formed after the lost write, required that
     * one too. A session begun after the change is not told.
     */
    @Test
    void aWriteOfTheOldPrimaryIsFoundLostBehindTheNewPrimarysLaterWrites() {
        writes(lsn(0x7000, 1));
        SessionConsistency lost = writes(lsn(0x7100, 1));   // acknowledged by the old primary, no standby had it
        SessionConsistency early = writes(lsn(0x7500, 2));   // the new primary's numbering passes it
        seen(lsn(0x8000, 2), LsnPosition.of(0x7000));

        assertEquals(1, causal.lostWriteFailovers(), "the loss is counted");
        LostWrite told = toldAtNextRead(lost);
        assertNotNull(told, "the session that wrote it is told");
        assertEquals(LsnPosition.of(0x7100), told.position());
        assertEquals(LsnPosition.of(0x7100), toldAtNextRead(early).position(), "the unit's reads required it");
        assertNull(toldAtNextRead(early), "once");
        assertNull(toldAtNextRead(causal.newSession()), "begun after the change");
    }

    /**
     * Under {@code consistency_scope=session}: a session's own write the failover lost, followed by its own write on
     * the promoted server, whose position passes it. Its requirement keeps only the later position (the new
     * primary's own write), yet it is told of the lost one.
     */
    @Test
    void aSessionsOwnLostWriteIsNotHiddenBehindItsLaterWriteOnTheNewPrimary() {
        CausalReads bySession = new CausalReads(ConsistencyRuntime.create(
                Map.of(io.rwsplit.RwSplitSettings.CONSISTENCY_SCOPE, "session"), clock), "default", new ServerEpochs(2));
        SessionConsistency session = bySession.newSession();
        session.committed(ConsistencyToken.of(lsn(0x7100, 1), clock.epochMicros()));   // lost
        clock.advanceMillis(10);
        session.committed(ConsistencyToken.of(lsn(0x7500, 2), clock.epochMicros()));   // on the promoted server
        clock.advanceMillis(10);
        long asOf = clock.epochMicros();
        clock.advanceMillis(1);
        bySession.primaryChanged(lsn(0x8000, 2), LsnPosition.of(0x7000), asOf);
        clock.advanceMillis(10);

        assertEquals(1, bySession.lostWriteFailovers());
        assertEquals(LsnPosition.of(0x7100), toldAtNextRead(session).position());
    }

    /**
     * MariaDB, two failovers. At the first, which lost nothing, the new primary (server 2) has written nothing yet: the
     * base, what writes committed before it now require, is 0-1-100, of the old primary's server id. A write committed
     * before that look and recorded after it requires the base; the new primary then writes 0-2-101 to 0-2-105. At the
     * second failover the next primary replicated only up to 0-2-103: the loss of 0-2-105 is found (the base, no write
     * of its own, did not stand for the unit's writes and hold the new primary's back).
     */
    @Test
    void onMariaDbTheFailoversBaseDoesNotHideTheNextFailoversLoss() {
        writes(GtidPosition.parseMariaDb("0-1-100"));
        SessionConsistency late = causal.newSession();
        ConsistencyToken beforeTheLook = ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-100"), clock.epochMicros());
        clock.advanceMillis(10);
        seen(GtidPosition.parseMariaDb("0-1-100"), GtidPosition.parseMariaDb("0-1-100"));
        late.committed(beforeTheLook);   // recorded after the look: re-based to the base
        for (int seq = 101; seq <= 105; seq++) {
            writes(GtidPosition.parseMariaDb("0-2-" + seq));
        }
        assertEquals(0, causal.lostWriteFailovers());
        seen(GtidPosition.parseMariaDb("0-2-103"), GtidPosition.parseMariaDb("0-2-103"));
        assertEquals(1, causal.lostWriteFailovers(), "0-2-104 and 0-2-105 were lost");
    }

    @Test
    void onMariaDbTooTheOldPrimarysLostWriteIsFoundBehindTheNewPrimarysLaterWrites() {
        writes(GtidPosition.parseMariaDb("0-1-100"));
        SessionConsistency lost = writes(GtidPosition.parseMariaDb("0-1-101"));
        SessionConsistency early = writes(GtidPosition.parseMariaDb("0-2-101"));   // the same number, another server
        seen(GtidPosition.parseMariaDb("0-2-103"), GtidPosition.parseMariaDb("0-1-100"));

        assertEquals(1, causal.lostWriteFailovers());
        assertEquals(GtidPosition.parseMariaDb("0-1-101"), toldAtNextRead(lost).position());
        assertEquals(GtidPosition.parseMariaDb("0-1-101"), toldAtNextRead(early).position(), "the unit's reads required it");
    }

    /** A store shared by instances that keeps tokens as text, as Redis does: what one instance wrote, the other reads. */
    static final class TextStore implements io.rwsplit.spi.ConsistencyStore {
        private final java.util.concurrent.ConcurrentHashMap<String, String> kept = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public ConsistencyToken read(String scope) {
            String text = kept.get(scope);
            return text == null ? null : ConsistencyToken.decode(text);
        }

        @Override
        public void record(String scope, ConsistencyToken write) {
            kept.merge(scope, write.encode(), (a, b) -> io.rwsplit.position.Tokens.merge(ConsistencyToken.decode(a),
                    ConsistencyToken.decode(b)).encode());
        }
    }

    /**
     * Two instances share the unit's position through the store. The other instance writes 0/7500 on the promoted
     * server (timeline 2) before either monitor sees the failover, and this instance learns it from the store: its
     * timeline comes along, so when this instance's monitor sees the failover, which lost nothing (the old primary's
     * last write, 0/7000, was replicated), no loss is counted and the write's readers here are not told of one.
     */
    @Test
    void aWriteOfAnotherInstanceOnTheNewPrimaryLearntFromTheStoreIsNotALostWrite() {
        TextStore store = new TextStore();
        CausalReads here = new CausalReads(new ConsistencyRuntime(ConsistencyConfig.from(Map.of()), clock, store, false),
                "default", new ServerEpochs(2));
        CausalReads there = new CausalReads(new ConsistencyRuntime(ConsistencyConfig.from(Map.of()), clock, store, false),
                "default", new ServerEpochs(2));
        here.newSession().committed(ConsistencyToken.of(lsn(0x7000, 1), clock.epochMicros()));
        clock.advanceMillis(10);
        there.newSession().committed(ConsistencyToken.of(lsn(0x7500, 2), clock.epochMicros()));
        clock.advanceMillis(10);
        SessionConsistency reader = here.newSession();
        assertEquals(LsnPosition.of(0x7500), reader.requirement().positionOrNull(), "learnt from the store");

        long asOf = clock.epochMicros();
        clock.advanceMillis(1);
        here.primaryChanged(lsn(0x8000, 2), LsnPosition.of(0x7000), asOf);
        clock.advanceMillis(10);

        assertEquals(0, here.lostWriteFailovers());
        assertNull(toldAtNextRead(reader));
        assertNull(toldAtNextRead(here.newSession()));
    }

    /**
     * MariaDB: a session commits 0-2-151 on the new primary after the monitor read its position (0-2-150) and before
     * the change is told: the unit's writes are those taken when the failover was seen, before the position, so the
     * write is not missing from it and passes for no lost one.
     */
    @Test
    void aWriteBetweenTheMonitorsLookAndItsReportIsNotALostWrite() {
        writes(GtidPosition.parseMariaDb("0-1-100"));
        writes(GtidPosition.parseMariaDb("0-2-150"));   // on the new primary before the look
        CausalReads.FailoverLook look = causal.failoverSeen(clock.epochMicros());
        clock.advanceMillis(1);
        SessionConsistency between = writes(GtidPosition.parseMariaDb("0-2-151"));   // after its position was read
        look.changed(GtidPosition.parseMariaDb("0-2-150"), GtidPosition.parseMariaDb("0-1-100"));
        clock.advanceMillis(10);

        assertEquals(0, causal.lostWriteFailovers());
        assertNull(toldAtNextRead(between));
    }

    /**
     * MariaDB under {@code consistency_scope=session}: a session's write 0-1-105, which no replica had, then writes of
     * the promoted server 0-2-101 onwards, the session's own 0-2-106 among them. The lost write keeps its own commit
     * time while the new primary's writes follow (they do not replace it), so the session is told of it.
     */
    @Test
    void onMariaDbTheLostWriteKeepsItsCommitTimeBehindTheNewPrimarysWrites() {
        CausalReads bySession = new CausalReads(ConsistencyRuntime.create(
                Map.of(io.rwsplit.RwSplitSettings.CONSISTENCY_SCOPE, "session"), clock), "default", new ServerEpochs(2));
        SessionConsistency session = bySession.newSession();
        long lostAt = clock.epochMicros();
        session.committed(ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-105"), lostAt));
        clock.advanceMillis(10);
        for (int seq = 101; seq <= 105; seq++) {
            bySession.newSession().committed(ConsistencyToken.of(GtidPosition.parseMariaDb("0-2-" + seq), clock.epochMicros()));
            clock.advanceMillis(1);
        }
        session.committed(ConsistencyToken.of(GtidPosition.parseMariaDb("0-2-106"), clock.epochMicros()));
        clock.advanceMillis(10);
        bySession.newSession().committed(ConsistencyToken.of(GtidPosition.parseMariaDb("0-2-107"), clock.epochMicros()));
        clock.advanceMillis(10);
        long asOf = clock.epochMicros();
        clock.advanceMillis(1);
        bySession.primaryChanged(GtidPosition.parseMariaDb("0-2-107"), GtidPosition.parseMariaDb("0-1-100"), asOf);
        clock.advanceMillis(10);

        LostWrite told = toldAtNextRead(session);
        assertNotNull(told, "the session is told of its lost write");
        assertEquals(GtidPosition.parseMariaDb("0-1-105"), told.position());
        assertEquals(lostAt, told.commitMicros());
    }

    /**
     * MariaDB, two failovers. A replica had replayed the old primary up to 0-1-105 while the promoted server had only
     * 0-1-100: the base is raised past what the replica saw. The new primary's writes after the look (0-2-101 to
     * 0-2-110) do not reach it, so reads require them merged with the base, of the old primary's server id. The next
     * failover, to a server that replicated only up to 0-2-108, still finds 0-2-109 and 0-2-110 lost.
     */
    @Test
    void aWriteMergedWithARaisedBaseDoesNotHideTheNextFailoversLoss() {
        writes(GtidPosition.parseMariaDb("0-1-100"));
        causal.observed(0, GtidPosition.parseMariaDb("0-1-105"), causal.epoch(0));
        seen(GtidPosition.parseMariaDb("0-1-100"), GtidPosition.parseMariaDb("0-1-100"));
        for (int seq = 101; seq <= 110; seq++) {
            writes(GtidPosition.parseMariaDb("0-2-" + seq));
        }
        assertEquals(0, causal.lostWriteFailovers());
        seen(GtidPosition.parseMariaDb("0-2-108"), GtidPosition.parseMariaDb("0-2-108"));
        assertEquals(1, causal.lostWriteFailovers(), "0-2-109 and 0-2-110 were lost");
    }
}
