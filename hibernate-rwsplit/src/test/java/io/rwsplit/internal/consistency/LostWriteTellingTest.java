package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;
import io.rwsplit.testing.LogCapture;

/**
 * Who is told of a write a failover lost, with a fake clock: the session that wrote it learns it at its next read,
 * once, whatever it did in between (another write on the new primary, a later failover that lost nothing).
 */
class LostWriteTellingTest {

    private final FakeClock clock = new FakeClock();
    private final ServerEpochs epochs = new ServerEpochs(2);
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default", epochs);
    /** Each lossy failover logs at ERROR, as it should: not shown here. */
    private final LogCapture quiet = LogCapture.attach("io.rwsplit.consistency", ch.qos.logback.classic.Level.OFF);

    @AfterEach
    void restore() {
        quiet.close();
    }

    private ConsistencyToken write(long lsn) {
        return ConsistencyToken.of(LsnPosition.of(lsn), clock.epochMicros());
    }

    private void failover(long newPrimary) {
        failover(causal, newPrimary);
    }

    private void failover(CausalReads of, long newPrimary) {
        clock.advanceMillis(10);
        of.primaryChanged(LsnPosition.of(newPrimary), LsnPosition.of(newPrimary));
        clock.advanceMillis(10);
    }

    @Test
    void aSessionThatWritesAgainOnTheNewPrimaryBeforeItReadsIsStillToldOfItsLostWrite() {
        SessionConsistency session = causal.newSession();
        session.committed(write(9_000));
        failover(8_000);   // the new primary lacks 9000
        session.committed(write(8_100));   // its next write, on the new primary
        session.requirement();
        LostWrite lost = session.takeLostWrite();
        assertNotNull(lost, "its next read is told");
        assertEquals(LsnPosition.of(9_000), lost.position());
        session.requirement();
        assertNull(session.takeLostWrite(), "once");
    }

    @Test
    void aLaterFailoverThatLostNothingDoesNotHideAnEarlierLoss() {
        SessionConsistency session = causal.newSession();
        session.committed(write(9_000));
        failover(8_000);   // lost 9000
        causal.newSession().committed(write(8_100));   // another session writes on the new primary
        failover(8_100);   // the next one lost nothing
        session.requirement();
        LostWrite lost = session.takeLostWrite();
        assertNotNull(lost, "the session idle through both failovers is told at its next read");
        assertEquals(LsnPosition.of(9_000), lost.position());
        assertEquals(1, causal.lostWriteFailovers());
        SessionConsistency later = causal.newSession();
        later.requirement();
        assertNull(later.takeLostWrite(), "a session begun after the failovers is not");
    }

    /**
     * A store shared by the instances still holds the unit's lost write after the failover (until the next write): a
     * session begun after the change requires the new primary's position, not the lost write's (which would then stand
     * with a later time, never re-based), and is not failed.
     */
    @Test
    void aSessionBegunAfterTheFailoverIsNotHeldToTheLostWriteTheSharedStoreStillHolds() {
        StoreOutageTest.FlakyStore store = new StoreOutageTest.FlakyStore(clock);
        CausalReads shared = new CausalReads(new ConsistencyRuntime(ConsistencyConfig.from(Map.of()), clock, store, false),
                "default", epochs);
        shared.newSession().committed(write(9_000));   // recorded in the shared store too
        failover(shared, 8_000);
        SessionConsistency later = shared.newSession();
        assertEquals(LsnPosition.of(8_000), later.requirement().positionOrNull(), "the new primary's position");
        assertNull(later.takeLostWrite(), "begun after the change: not failed");
        assertEquals(LsnPosition.of(8_000), shared.unitCommitted().positionOrNull(), "the unit's own position kept");
    }

    /**
     * A client's cookie carries its lost write into every request (a scope resolver's requirement, until a write
     * rewrites it): the first request's session is told, the next ones read the new primary's data.
     */
    @Test
    void aCookieCarryingALostWriteIsToldOnceNotAtEveryRequest() {
        ConsistencyToken cookie = write(9_000);
        io.rwsplit.spi.ScopeResolver carried = new io.rwsplit.spi.ScopeResolver() {
            @Override
            public String resolveScope() {
                return null;
            }

            @Override
            public ConsistencyToken resolveRequirement() {
                return cookie;
            }
        };
        CausalReads withCookies = new CausalReads(ConsistencyRuntime.create(
                Map.of(io.rwsplit.RwSplitSettings.SCOPE_RESOLVER, carried), clock), "default", epochs);
        withCookies.newSession().committed(cookie);
        failover(withCookies, 8_000);   // lost 9000
        SessionConsistency first = withCookies.newSession();
        first.requirement();
        assertNotNull(first.takeLostWrite(), "the first request is told");
        for (int request = 0; request < 3; request++) {
            SessionConsistency next = withCookies.newSession();
            assertEquals(LsnPosition.of(8_000), next.requirement().positionOrNull());
            assertNull(next.takeLostWrite(), "later requests read the new primary's data");
        }
    }
}
