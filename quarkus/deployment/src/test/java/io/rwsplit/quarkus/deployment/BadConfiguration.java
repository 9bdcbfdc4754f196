package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.Consumer;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import io.quarkus.test.QuarkusUnitTest;

/** An application with one persistence unit on H2 whose {@code quarkus.rwsplit} configuration does not start. */
final class BadConfiguration {

    private BadConfiguration() {
    }

    /** The entity of the default persistence unit. */
    @Entity
    public static class Item {
        @Id
        public Long id;
    }

    /** The application with {@code key=value} added; its start must fail with a message that holds {@code expected}. */
    static QuarkusUnitTest app(String key, String value, String expected) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(BadConfiguration.class, Item.class))
                .overrideConfigKey("quarkus.datasource.db-kind", "h2")
                .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:bad_config;DB_CLOSE_DELAY=-1")
                .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create")
                .overrideConfigKey(key, value)
                .assertException(failsWith(expected));
    }

    private static Consumer<Throwable> failsWith(String expected) {
        return e -> {
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t.getMessage() != null && t.getMessage().contains(expected)) {
                    return;
                }
                chain.append("\n  ").append(t);
            }
            fail("not the expected failure (" + expected + "):" + chain);
        };
    }
}
