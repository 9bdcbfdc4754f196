package io.rwsplit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class ConsistencyTest {

    @Test
    void parsesEveryLevel() {
        assertSame(Consistency.strong(), Consistency.parse("strong"));
        assertSame(Consistency.readYourWrites(), Consistency.parse("READ_YOUR_WRITES"));
        assertSame(Consistency.eventual(), Consistency.parse(" eventual "));
        assertEquals(Consistency.boundedStaleness(Duration.ofMillis(500)), Consistency.parse("bounded_staleness:PT0.5S"));
        assertEquals(Consistency.boundedStaleness(Duration.ofSeconds(2)), Consistency.parse("bounded_staleness:pt2s"));
    }

    @Test
    void printsWhatItParses() {
        for (Consistency c : new Consistency[] {Consistency.strong(), Consistency.readYourWrites(), Consistency.eventual(),
                Consistency.boundedStaleness(Duration.ofMillis(250))}) {
            assertEquals(c, Consistency.parse(c.toString()));
        }
    }

    @Test
    void rejectsUnknownLevelsNamingThem() {
        for (String bad : new String[] {"linearizable", "bounded_staleness", "bounded_staleness:soon",
                "bounded_staleness:PT-1S", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Consistency.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void rejectsANegativeBound() {
        assertThrows(IllegalArgumentException.class, () -> Consistency.boundedStaleness(Duration.ofMillis(-1)));
    }
}
