package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** A bean whose class contradicts the annotation of an interface it implements fails the start, naming the class. */
class ContradictionWithAnInterfaceTest {

    @ReadReplica
    public interface Reads {
        String read();
    }

    @UsePrimary
    @ApplicationScoped
    public static class PrimaryReads implements Reads {
        @Override
        public String read() {
            return "";
        }
    }

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Reads.class, PrimaryReads.class))
            .assertException(e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t.getMessage() != null && t.getMessage().contains("PrimaryReads")
                            && t.getMessage().contains("keep one")) {
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
