package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class HibernateVersionGuardTest {

    @Test
    void acceptsHibernate72AndLater() {
        assertTrue(HibernateVersionGuard.supported("7.2.7.Final"));
        assertTrue(HibernateVersionGuard.supported("7.2.19.Final"));
        assertTrue(HibernateVersionGuard.supported("7.3.13.Final"));
        assertTrue(HibernateVersionGuard.supported("7.4.15.Final"));
        assertTrue(HibernateVersionGuard.supported("7.4.0.CR1"));
        assertTrue(HibernateVersionGuard.supported("7.10.1.Final"));
        assertTrue(HibernateVersionGuard.supported("8.0.0-SNAPSHOT"));
        assertDoesNotThrow(() -> HibernateVersionGuard.check(org.hibernate.Version.getVersionString()));
    }

    @Test
    void refusesHibernateOlderThan72() {
        assertFalse(HibernateVersionGuard.supported("7.1.17.Final"));
        assertFalse(HibernateVersionGuard.supported("7.0.0.Final"));
        assertFalse(HibernateVersionGuard.supported("6.6.30.Final"));
        assertFalse(HibernateVersionGuard.supported("[WORKING]"));
        assertFalse(HibernateVersionGuard.supported(null));
    }

    @Test
    void theStartupFailureNamesTheVersionNeededAndTheFix() {
        RuntimeException failure = assertThrows(RuntimeException.class, () -> HibernateVersionGuard.check("7.1.17.Final"));
        assertTrue(failure.getMessage().contains("7.2") && failure.getMessage().contains("7.1.17.Final"), failure.getMessage());
        FailureAnalysis analysis = new RwSplitFailureAnalyzer()
                .analyze(new BeanCreationException("rwSplitHibernateSettings", "failed", failure));
        assertTrue(analysis.getDescription().contains("needs Hibernate ORM 7.2 or later, but the application has 7.1.17.Final"),
                analysis.getDescription());
        assertTrue(analysis.getAction().contains("Spring Boot 4.0 or later") && analysis.getAction().contains("7.2.x"),
                analysis.getAction());
    }
}
