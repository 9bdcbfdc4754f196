package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;

/**
 * Who is told of a write a failover lost, with a fake clock: the session that wrote it learns it at its next read,
 * once, whatever it did in between (another write on the new primary, a later failover that lost nothing).
 */
class LostWriteTellingTest {

    private final FakeClock clock = new FakeClock();
    private final ServerEpochs epochs = new ServerEpochs(2);
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), clock), "default", epochs);
    private ch.qos.logback.classic.Level configured;

    @BeforeEach
    void quiet() {
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) ConsistencyRuntime.log;
        configured = log.getLevel();
        log.setLevel(ch.qos.logback.classic.Level.OFF);   // each lossy failover logs at ERROR, as it should
    }

    @AfterEach
    void restore() {
        ((ch.qos.logback.classic.Logger) ConsistencyRuntime.log).setLevel(configured);
    }

    private ConsistencyToken write(long lsn) {
        return ConsistencyToken.of(LsnPosition.of(lsn), clock.epochMicros());
    }

    private void failover(long newPrimary) {
        clock.advanceMillis(10);
        causal.primaryChanged(LsnPosition.of(newPrimary), LsnPosition.of(newPrimary));
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
}
