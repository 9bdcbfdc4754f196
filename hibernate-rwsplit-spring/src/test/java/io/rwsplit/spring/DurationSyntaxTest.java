package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.rwsplit.RwSplit;
import io.rwsplit.testing.DurationTexts;
import jakarta.persistence.EntityManagerFactory;

/**
 * A duration written as text reaches the core unchanged through {@code spring.jpa.properties} and is accepted or
 * refused exactly as the core (and the CDI module) accepts or refuses it.
 */
class DurationSyntaxTest {

    private static final String MAX_LAG = "spring.jpa.properties.hibernate.rwsplit.max_lag";

    private static H2Databases db;

    @BeforeAll
    static void databases() throws SQLException {
        db = new H2Databases();
    }

    @AfterAll
    static void close() throws SQLException {
        db.close();
    }

    private static Map<String, Object> withMaxLag(String text) {
        Map<String, Object> p = Apps.h2(db);
        p.put(MAX_LAG, text);
        return p;
    }

    @Test
    void startsWithEveryDurationTheCoreAccepts() {
        for (String text : DurationTexts.ACCEPTED) {
            try (ConfigurableApplicationContext app = Apps.start(false, withMaxLag(text))) {
                EntityManagerFactory emf = app.getBean(EntityManagerFactory.class);
                assertEquals(text, emf.getProperties().get("hibernate.rwsplit.max_lag"), "reached the core unchanged");
                assertTrue(RwSplit.health(emf) != null, "the module is active");
            }
        }
    }

    @Test
    void failsWithEveryDurationTheCoreRefusesNamingKeyAndValue() {
        for (String text : DurationTexts.REFUSED) {
            Throwable failure = assertThrows(Throwable.class, () -> Apps.start(false, withMaxLag(text)).close(), text);
            String messages = "";
            for (Throwable t = failure; t != null; t = t.getCause()) {
                messages += t.getMessage() + "\n";
            }
            assertTrue(messages.contains("'" + text + "'") && messages.contains("hibernate.rwsplit.max_lag"), messages);
        }
    }
}
