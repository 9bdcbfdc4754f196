package io.rwsplit.quarkus;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.ReadConsistency;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** The annotated beans the build step lists are checked at startup: a contradiction names its method. */
class RoutingAnnotationsRecorderTest {

    static class Consistent {
        @ReadReplica(consistency = "eventual")
        public void read() {
        }
    }

    @ReadReplica
    static class Contradictory {
        @ReadReplica
        @UsePrimary
        public void both() {
        }
    }

    static class Unparsable {
        @ReadConsistency("sometimes")
        public void read() {
        }
    }

    private final RoutingAnnotationsRecorder recorder = new RoutingAnnotationsRecorder();

    @Test
    void consistentAnnotationsPass() {
        assertDoesNotThrow(() -> recorder.validate(List.of(Consistent.class.getName())));
    }

    @Test
    void readReplicaAndUsePrimaryOnOneMethodFailNamingIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> recorder.validate(List.of(Consistent.class.getName(), Contradictory.class.getName())));
        assertTrue(e.getMessage().contains("Contradictory.both()"), e.getMessage());
    }

    @Test
    void aLevelThatDoesNotParseFailsNamingTheMethod() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> recorder.validate(List.of(Unparsable.class.getName())));
        assertTrue(e.getMessage().contains("Unparsable.read()") && e.getMessage().contains("sometimes"), e.getMessage());
    }
}
