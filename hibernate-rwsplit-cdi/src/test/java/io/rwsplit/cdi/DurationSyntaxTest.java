package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.Durations;
import io.rwsplit.testing.DurationTexts;

/** The CDI module's durations are read like the core's: the same texts accepted, the same refused. */
class DurationSyntaxTest {

    private static Map<String, String> withLeakTimeout(String text) {
        return Map.of("rwsplit.cdi.primary.url", "jdbc:h2:mem:cdi-durations-primary", "rwsplit.cdi.replicas", "r1",
                "rwsplit.cdi.replica.r1.url", "jdbc:h2:mem:cdi-durations-replica", "rwsplit.cdi.leak_timeout", text);
    }

    @Test
    void acceptsWhatTheCoreAccepts() {
        for (String text : DurationTexts.ACCEPTED) {
            try (RwSplitDataSources pools = RwSplitDataSources.build(withLeakTimeout(text))) {
                assertEquals(Durations.parse(text),
                        pools.primary().getConfiguration().connectionPoolConfiguration().leakTimeout(), text);
            }
        }
        try (RwSplitDataSources pools = RwSplitDataSources.build(withLeakTimeout("1.5s"))) {
            assertEquals(Duration.ofMillis(1500), pools.replicas().get("r1").getConfiguration()
                    .connectionPoolConfiguration().leakTimeout());
        }
    }

    @Test
    void refusesWhatTheCoreRefusesNamingKeyAndValue() {
        for (String text : DurationTexts.REFUSED) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RwSplitDataSources.build(withLeakTimeout(text)), text);
            assertTrue(e.getMessage().contains("'" + text + "'") && e.getMessage().contains("rwsplit.cdi.leak_timeout"),
                    e.getMessage());
        }
    }
}
