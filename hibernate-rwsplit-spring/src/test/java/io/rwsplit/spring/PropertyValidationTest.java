package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Invalid settings fail the start of a real application with the failure analysis Spring Boot prints (the first
 * analyzer of {@code META-INF/spring.factories} that recognises the failure), naming the property to fix.
 */
class PropertyValidationTest {

    private static H2Databases db;

    @BeforeAll
    static void databases() throws SQLException {
        db = new H2Databases();
    }

    @AfterAll
    static void close() throws SQLException {
        db.close();
    }

    @Test
    void aNegativeDurationNamesTheProperty() {
        FailureAnalysis analysis = startFails(Map.of("spring.rwsplit.health.max-lag", "-1s"));
        assertTrue(analysis.getDescription().contains("Property: spring.rwsplit.health.maxLag"), analysis.getDescription());
        assertTrue(analysis.getDescription().contains("must be a duration that is not negative"), analysis.getDescription());
    }

    @Test
    void anUnknownBalancerNamesThePropertyAndTheValue() {
        FailureAnalysis analysis = startFails(Map.of("spring.rwsplit.load-balancer", "fastest"));
        assertTrue(analysis.getDescription().contains("spring.rwsplit.load-balancer"), analysis.getDescription());
        assertTrue(analysis.getDescription().contains("fastest"), analysis.getDescription());
    }

    @Test
    void anInvalidConsistencyLevelNamesTheProperty() {
        FailureAnalysis analysis = startFails(Map.of("spring.rwsplit.consistency", "sometimes"));
        assertTrue(analysis.getDescription().contains("spring.rwsplit.consistency"), analysis.getDescription());
        assertTrue(analysis.getDescription().contains("sometimes"), analysis.getDescription());
    }

    @Test
    void anInvalidCoreSettingUnderSpringJpaPropertiesNamesBothProperties() {
        FailureAnalysis analysis = startFails(Map.of("spring.jpa.properties.hibernate.rwsplit.probe_interval", "soon"));
        assertTrue(analysis.getDescription().contains("'soon'") && analysis.getDescription().contains("hibernate.rwsplit.probe_interval"),
                analysis.getDescription());
        assertTrue(analysis.getAction().contains("spring.rwsplit.health.probe-interval"), analysis.getAction());
    }

    private static FailureAnalysis startFails(Map<String, Object> invalid) {
        Map<String, Object> p = Apps.h2(db);
        p.putAll(invalid);
        Throwable failure = assertThrows(Throwable.class, () -> Apps.start(false, p).close());
        return analyze(failure);
    }

    /** What Spring Boot reports for a failed start: the first analysis, analyzers in their declared order. */
    private static FailureAnalysis analyze(Throwable failure) {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(PropertyValidationTest.class.getClassLoader())
                .load(FailureAnalyzer.class, null, SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { }));
        AnnotationAwareOrderComparator.sort(analyzers);
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        throw new AssertionError("no failure analysis for " + failure, failure);
    }
}
