package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A native build of an application with the extension stops at build time with a message that says why. */
class NativeBuildRefusedTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.native.enabled", "true")
            .assertException(e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t.getMessage() != null && t.getMessage().contains("does not support native mode")) {
                        return;
                    }
                }
                fail("not the native-mode refusal: " + e);
            });

    @Test
    void theBuildFails() {
        fail("the application was built");
    }
}
