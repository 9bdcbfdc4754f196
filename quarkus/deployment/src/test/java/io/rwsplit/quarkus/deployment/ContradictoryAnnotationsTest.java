package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** A bean whose routing annotations contradict each other fails the application's start, naming the method. */
class ContradictoryAnnotationsTest {

    @ApplicationScoped
    public static class Contradictory {
        @ReadReplica
        @UsePrimary
        public void both() {
        }
    }

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Contradictory.class))
            .assertException(e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t.getMessage() != null && t.getMessage().contains("Contradictory.both()")) {
                        return;
                    }
                }
                fail("not the contradiction: " + e);
            });

    @Test
    void theApplicationDoesNotStart() {
        fail("the application started");
    }
}
