package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;

class UnitPositionTest {

    @Test
    void keepsTheMergeOfEveryCommitAndNeverGoesBack() {
        UnitPosition unit = new UnitPosition();
        assertNull(unit.current());
        ConsistencyToken later = ConsistencyToken.withoutPosition(2_000);
        unit.committed(later);
        assertSame(later, unit.current());
        unit.committed(ConsistencyToken.withoutPosition(1_000));
        assertEquals(2_000, unit.current().commitTimeMicros());
        unit.committed(null);
        assertEquals(2_000, unit.current().commitTimeMicros());
    }

    @Test
    void theFurthestKnownWriteOutlivesALaterWriteWithoutAPositionUntilAFailover() {
        UnitPosition unit = new UnitPosition();
        assertNull(unit.knownWrite());
        unit.committed(ConsistencyToken.of(io.rwsplit.position.LsnPosition.of(500), 1_000));
        unit.committed(ConsistencyToken.of(io.rwsplit.position.LsnPosition.of(400), 1_500));
        unit.committed(ConsistencyToken.withoutPosition(2_000));
        assertNull(unit.current().positionOrNull(), "readers use the time rule");
        assertEquals(ConsistencyToken.of(io.rwsplit.position.LsnPosition.of(500), 1_000), unit.knownWrite(),
                "the writes before still need 500");
        unit.rebase(ConsistencyToken.of(io.rwsplit.position.LsnPosition.of(450), 3_000));
        assertNull(unit.knownWrite(), "a failover starts over");
    }
}
