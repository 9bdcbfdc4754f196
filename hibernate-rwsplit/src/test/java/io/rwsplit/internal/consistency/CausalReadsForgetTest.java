package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.internal.health.ServerEpochs;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.testing.FakeClock;

/** A replica's learned position holds only while the replica's epoch does. */
class CausalReadsForgetTest {

    private final ServerEpochs epochs = new ServerEpochs(2);
    private final CausalReads causal = new CausalReads(ConsistencyRuntime.create(Map.of(), new FakeClock()), "t", epochs);
    private final GtidPosition at10 = GtidPosition.parsePostgres("0/10");
    private final GtidPosition at20 = GtidPosition.parsePostgres("0/20");

    @Test
    void aPositionLearnedFromAReplicaIsUsedUntilTheReplicaIsForgotten() {
        causal.observed(0, at20, epochs.current(0));
        assertTrue(causal.applied(0, at10));
        assertFalse(causal.applied(1, at10), "another replica knows nothing");
        epochs.forget(0);
        assertFalse(causal.applied(0, at10), "a restarted replica may be behind what it said before");
    }

    @Test
    void anAnswerAskedForBeforeTheReplicaWasForgottenDoesNotComeBack() {
        long askedAt = epochs.current(0);
        epochs.forget(0);                      // the replica restarts while the probe's answer is on its way
        causal.observed(0, at20, askedAt);
        assertFalse(causal.applied(0, at10));
    }

    @Test
    void afterForgettingOnlyWhatTheReplicaSaysNowCountsEvenWhenItIsLess() {
        causal.observed(0, at20, epochs.current(0));
        long now = epochs.forget(0);
        causal.observed(0, at10, now);
        assertTrue(causal.applied(0, at10));
        assertFalse(causal.applied(0, at20), "the old, higher position is not merged back");
    }
}
