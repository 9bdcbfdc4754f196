package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;

/**
 * What the health monitor sees a replica apply is evidence of how far behind it is, whatever scope the reads honour:
 * a replica seen holding the unit's last write, committed 30 ms earlier, keeps up, and a newer write is worth a wait
 * there although the monitor's lag figure (a peak over its window) is still high.
 */
class MonitorEvidenceTest {

    private static final long PEAK_MICROS = 2_000_000;

    @ParameterizedTest
    @ValueSource(strings = {"unit", "session"})
    void aReplicaTheMonitorSawHoldingTheUnitsLastWriteIsWorthAWaitUnderEveryScope(String scope) {
        FakeClock clock = new FakeClock();
        ServerEpochs epochs = new ServerEpochs(2);
        CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(RwSplitSettings.CONSISTENCY_SCOPE, scope),
                clock), "default", epochs);
        causal.newSession().committed(ConsistencyToken.of(LsnPosition.of(9_000), clock.epochMicros() - 30_000));
        ConsistencyToken next = ConsistencyToken.of(LsnPosition.of(9_100), clock.epochMicros());
        assertFalse(causal.canCatchUp(0, PEAK_MICROS, next), "the lag figure alone: 2 s behind");

        causal.observed(0, LsnPosition.of(9_000), epochs.current(0));

        assertTrue(causal.canCatchUp(0, PEAK_MICROS, next), "seen 30 ms behind at most: worth a wait");
        assertFalse(causal.canCatchUp(1, PEAK_MICROS, next), "the other replica proved nothing");
    }
}
