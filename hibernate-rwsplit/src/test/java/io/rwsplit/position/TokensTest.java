package io.rwsplit.position;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void mergesPositionsAndKeepsTheLaterTime() {
        ConsistencyToken a = ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-10"), 5);
        ConsistencyToken b = ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-8,2-1-1"), 7);
        ConsistencyToken m = Tokens.merge(a, b);
        assertEquals(7, m.commitTimeMicros());
        assertEquals(GtidPosition.parseMariaDb("0-1-10,2-1-1"), m.positionOrNull());
    }

    @Test
    void aLaterWriteWithoutPositionFallsBackToTime() {
        ConsistencyToken m = Tokens.merge(ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-10"), 5),
                ConsistencyToken.withoutPosition(9));
        assertNull(m.positionOrNull());
        assertEquals(9, m.commitTimeMicros());
    }

    @Test
    void nullIsTheNeutralElement() {
        ConsistencyToken a = ConsistencyToken.withoutPosition(3);
        assertSame(a, Tokens.merge(null, a));
        assertSame(a, Tokens.merge(a, null));
    }

    @Test
    void differentFlavoursFallBackToTime() {
        ConsistencyToken m = Tokens.merge(ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-10"), 5),
                ConsistencyToken.of(GtidPosition.parseMySql("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5"), 4));
        assertNull(m.positionOrNull());
        assertEquals(5, m.commitTimeMicros());
    }
}
