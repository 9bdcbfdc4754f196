package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.rwsplit.Consistency;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;

/**
 * What startup says and refuses: replica lists in every form users write, one error per misconfiguration
 * naming the setting and the value, a WARN per setting of ours while the module is off, one WARN for weights the
 * balancer does not use, one INFO line.
 */
class StartupChecksTest {

    private final H2Pair h2 = new H2Pair();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger log = (Logger) LoggerFactory.getLogger("io.rwsplit");

    @BeforeEach
    void capture() {
        appender.start();
        log.addAppender(appender);
    }

    @AfterEach
    void close() {
        log.detachAppender(appender);
        h2.close();
    }

    private Map<String, Object> with(String key, Object value) {
        Map<String, Object> settings = h2.settings();
        settings.remove(RwSplitSettings.REPLICAS);
        settings.put(key, value);
        return settings;
    }

    private String startupFails(Map<String, Object> settings) {
        Throwable t = assertThrows(Throwable.class, () -> h2.factory(settings).close());
        while (t != null && !(t instanceof ConnectionProviderConfigurationException)) {
            t = t.getCause();
        }
        assertTrue(t != null, "startup did not fail with a ConnectionProviderConfigurationException");
        return t.getMessage();
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "'" + part + "' missing in: " + message);
        }
    }

    /** Where four reads of one thread went, the replicas taken in turn (so that each one listed is seen). */
    private Map<String, Long> replicaReads(Map<String, Object> settings) {
        settings.put(RwSplitSettings.LOAD_BALANCER, "round_robin");
        try (EntityManagerFactory emf = h2.factory(settings)) {
            for (int i = 0; i < 4; i++) {
                try (EntityManager em = emf.createEntityManager()) {
                    RwSplit.consistency(em, Consistency.eventual());
                    em.find(Person.class, 1L);
                }
            }
            return RwSplit.statistics(emf).byReplica();
        }
    }

    @Test
    void commaSeparatedReplicasAreTwoReplicas() {
        assertEquals(Map.of("replica1", 2L, "replica2", 2L),
                replicaReads(with(RwSplitSettings.REPLICAS, h2.replicaUrl + "," + h2.replica2Url)));
    }

    @Test
    void spring_sIndexedListIsAccepted() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS + "[0]", h2.replicaUrl);
        settings.put(RwSplitSettings.REPLICAS + "[1]", h2.replica2Url);
        assertEquals(Map.of("replica1", 2L, "replica2", 2L), replicaReads(settings));
    }

    @Test
    void aReplicaThatIsThePrimaryFailsStartupNamingIt() {
        String primaryAgain = h2.primaryUrl.substring(0, h2.primaryUrl.indexOf(';'));
        assertMentions(startupFails(with(RwSplitSettings.REPLICAS, h2.replicaUrl + " " + primaryAgain)),
                primaryAgain, RwSplitSettings.REPLICAS, "primary itself");
    }

    @Test
    void aReplicaUrlThatDoesNotParseFailsStartupNamingIt() {
        String bad = "jdbc:mariadb://127.0.0.1:33o7/rwsplit";
        assertMentions(startupFails(with(RwSplitSettings.REPLICAS, bad)), bad, RwSplitSettings.REPLICAS, "33o7");
    }

    @Test
    void aReplicaUrlNoDriverAcceptsFailsStartupNamingIt() {
        String typo = "jdbc:mariadbb://127.0.0.1:3307/rwsplit";
        assertMentions(startupFails(with(RwSplitSettings.REPLICAS, typo)), typo, RwSplitSettings.REPLICAS, "driver");
    }

    @Test
    void bothListFormsFailStartup() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS, h2.replicaUrl);
        settings.put(RwSplitSettings.REPLICAS + ".0", h2.replica2Url);
        assertMentions(startupFails(settings), RwSplitSettings.REPLICAS + ".0", "one form");
    }

    @Test
    void anUnknownConsistencyScopeFailsStartupNamingKeyAndValue() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS, h2.replicaUrl);
        settings.put(RwSplitSettings.CONSISTENCY_SCOPE, "global");
        assertMentions(startupFails(settings), RwSplitSettings.CONSISTENCY_SCOPE, "'global'", "unit", "session");
    }

    @Test
    void aBooleanOtherThanTrueOrFalseFailsStartupNamingKeyAndValue() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS, h2.replicaUrl);
        settings.put(RwSplitSettings.REPLICA_CACHE_PUTS, "yes");
        assertMentions(startupFails(settings), RwSplitSettings.REPLICA_CACHE_PUTS, "'yes'", "true or false");
    }

    @Test
    void aDurationWithoutAUnitFailsStartupNamingKeyAndValue() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS, h2.replicaUrl);
        settings.put(RwSplitSettings.PROBE_INTERVAL, "500");
        assertMentions(startupFails(settings), RwSplitSettings.PROBE_INTERVAL, "'500'", "a number needs a unit");
    }

    @Test
    void aMultiTenantUnitRefusesABadValueLikeASingleUnit() {
        Map<String, Object> settings = with(RwSplitSettings.TENANTS, "acme");
        settings.put(RwSplitSettings.TENANT_PREFIX + "acme.url", h2.primaryUrl);
        settings.put(RwSplitSettings.TENANT_PREFIX + "acme.replicas", h2.replicaUrl);
        settings.put(RwSplitSettings.REPLICA_CACHE_PUTS, "yes");
        assertMentions(startupFails(settings), RwSplitSettings.REPLICA_CACHE_PUTS, "'yes'", "true or false");
    }

    @Test
    void settingsOfOursWhileTheModuleIsOffAreEachNamedInAWarning() {
        Map<String, Object> settings = with("hibernate.rwsplit.replica", h2.replicaUrl); // a typo: no 's'
        settings.remove(RwSplitSettings.POOL_PREFIX + "maximumPoolSize");
        settings.put(RwSplitSettings.MAX_LAG, "0");
        h2.factory(settings).close();
        List<String> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("'hibernate.rwsplit.replica'")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("'" + RwSplitSettings.MAX_LAG + "'")), warnings.toString());
    }

    @Test
    void replicaWeightsTheBalancerDoesNotUseAreNamedInOneWarning() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS, "a=" + h2.replicaUrl + " b=" + h2.replica2Url);
        settings.put(RwSplitSettings.REPLICA_PREFIX + "a.weight", "3");
        settings.put(RwSplitSettings.REPLICA_PREFIX + "b.weight", 1);
        h2.factory(settings).close();
        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertMentions(warnings.get(0), "replica weights {hibernate.rwsplit.replica.a.weight=3,"
                + " hibernate.rwsplit.replica.b.weight=1} are ignored", "setting 'hibernate.rwsplit.load_balancer' is"
                + " 'thread_affinity' (the default)", "'weighted'");
        assertFalse(warnings.get(0).contains("jdbc:"), "no URL in: " + warnings.get(0));
    }

    @Test
    void replicaWeightsAreNamedWithTheBalancerGivenAndNotWhenItIsWeighted() {
        Map<String, Object> settings = with(RwSplitSettings.REPLICAS, "a=" + h2.replicaUrl + " b=" + h2.replica2Url);
        settings.put(RwSplitSettings.REPLICA_PREFIX + "a.weight", "3");
        settings.put(RwSplitSettings.LOAD_BALANCER, "round_robin");
        h2.factory(settings).close();
        assertMentions(String.join("\n", warnings()), "{hibernate.rwsplit.replica.a.weight=3} are ignored",
                "is 'round_robin', which");

        appender.list.clear();
        settings.put(RwSplitSettings.LOAD_BALANCER, "weighted");
        h2.factory(settings).close();
        assertEquals(List.of(), warnings());
    }

    private List<String> warnings() {
        return appender.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void oneInfoLineSaysReplicasConsistencyScopeModeProbeAndLagLimit() {
        h2.factory(with(RwSplitSettings.REPLICAS, h2.replicaUrl)).close();
        List<String> lines = appender.list.stream().filter(e -> e.getLevel() == Level.INFO)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("routing between")).toList();
        assertEquals(1, lines.size(), lines.toString());
        assertMentions(lines.get(0), "replica1(" + h2.replicaUrl, "consistency read_your_writes", "scope unit",
                "read_your_writes auto", "lag probe reachability", "max_lag 1000 ms");
    }
}
