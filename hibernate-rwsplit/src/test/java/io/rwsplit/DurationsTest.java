package io.rwsplit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
            "PT0.5S, 500", "pt2m, 120000", "250ms, 250", "1.5s, 1500", "2m, 120000", "1h, 3600000", "0, 0",
            "' 2S ', 2000", "0.5ms, 0.5", "-1s, -1000", "-PT1S, -1000"})
    void readsIsoAndANumberWithAUnit(String text, double millis) {
        assertEquals(Duration.ofNanos(Math.round(millis * 1_000_000)), Durations.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"500", "1.5", "soon", "", "ms", "1d", "5 minutes", "1.5.2s", "PT", "1e3ms", "0.0000001ms"})
    void refusesABareNumberAndEverythingElseNamingTheText(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'") && e.getMessage().contains("a number needs a unit"),
                e.getMessage());
    }
}
