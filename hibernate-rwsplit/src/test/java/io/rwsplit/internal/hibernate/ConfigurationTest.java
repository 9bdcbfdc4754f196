package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.h2.jdbcx.JdbcDataSource;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;
import io.rwsplit.spi.TransactionStatus;

/** Startup: activation by one property, the ways to give replicas, and one clear error per misconfiguration. */
class ConfigurationTest {

    private H2Pair h2;

    @BeforeEach
    void setUp() {
        h2 = new H2Pair();
    }

    @AfterEach
    void tearDown() {
        h2.close();
    }

    private ConnectionProviderConfigurationException startupFails(Map<String, Object> settings) {
        Throwable t = assertThrows(Throwable.class, () -> h2.factory(settings).close());
        while (t != null && !(t instanceof ConnectionProviderConfigurationException)) {
            t = t.getCause();
        }
        if (t == null) {
            throw new AssertionError("startup did not fail with a ConnectionProviderConfigurationException");
        }
        return (ConnectionProviderConfigurationException) t;
    }

    private Map<String, Object> with(String key, Object value) {
        Map<String, Object> settings = h2.settings();
        settings.put(key, value);
        return settings;
    }

    private static void assertNames(ConnectionProviderConfigurationException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' missing in: " + e.getMessage());
        }
    }

    @Test
    void withoutTheReplicasPropertyTheModuleDoesNothing() {
        Map<String, Object> settings = h2.settings();
        settings.remove("hibernate.rwsplit.replicas");
        settings.remove("hibernate.rwsplit.pool.maximumPoolSize");
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            assertEquals("primary-alice", em.find(Person.class, 1L).name);
            assertThrows(IllegalStateException.class, () -> RwSplit.statistics(em));
            assertThrows(IllegalStateException.class, () -> RwSplit.statistics(emf));
            em.unwrap(org.hibernate.Session.class).doWork(c ->
                    assertTrue(!(c instanceof io.rwsplit.internal.route.RoutingConnection), "plain connection expected"));
        }
    }

    @Test
    void persistenceXmlWithOnePropertyActivatesRouting() {
        try (EntityManagerFactory emf = jakarta.persistence.Persistence.createEntityManagerFactory("xml-unit",
                Map.of("jakarta.persistence.jdbc.url", h2.primaryUrl,
                        "hibernate.rwsplit.replicas", h2.replicaUrl));
             EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            assertEquals(1, RwSplit.statistics(emf).replicaStatements());
        }
    }

    @Test
    void replicaUrlsWithSemicolonsAndNamesAreAccepted() {
        Map<String, Object> settings = with("hibernate.rwsplit.replicas",
                "  east=" + h2.replicaUrl + ";IFEXISTS=TRUE\n\t west=" + h2.replica2Url + "  ");
        settings.put("hibernate.rwsplit.load_balancer", "round_robin");   // the first read on the first replica
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            assertEquals(Map.of("east", 1L), RwSplit.statistics(em).byReplica());
        }
    }

    @Test
    void replicaGivenByNameWithSeparateUrlAndCredentials() {
        Map<String, Object> settings = with("hibernate.rwsplit.replicas", "r1");
        settings.put("hibernate.rwsplit.replica.r1.url", h2.replicaUrl);
        settings.put("hibernate.rwsplit.replica.r1.user", "sa");
        settings.put("hibernate.rwsplit.replica.r1.password", "");
        settings.put("hibernate.rwsplit.replica.r1.weight", "3");
        settings.put("hibernate.rwsplit.replica.r1.tier", "1");
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
        }
    }

    @Test
    void replicaDataSourceObjectFromTheSettingsMapIsUsed() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(h2.replica2Url);
        ds.setUser("sa");
        Map<String, Object> settings = with("hibernate.rwsplit.replicas", "framework");
        settings.put("hibernate.rwsplit.replica.framework.datasource", ds);
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            assertEquals("replica2-alice", em.find(Person.class, 1L).name);
        }
    }

    @Test
    void primaryGivenAsDataSourceIsWrapped() {
        JdbcDataSource primary = new JdbcDataSource();
        primary.setURL(h2.primaryUrl);
        primary.setUser("sa");
        Map<String, Object> settings = h2.settings();
        settings.remove("jakarta.persistence.jdbc.url");
        settings.put("jakarta.persistence.nonJtaDataSource", primary);
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            assertEquals("primary-alice", RwSplit.onPrimary(em, () -> {
                em.clear();
                return em.find(Person.class, 1L).name;
            }));
        }
    }

    @Test
    void primaryGivenThroughHikariCpProviderIsWrapped() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.connection.provider_class", "hikaricp");
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            RoutingConnectionProvider provider = emf.unwrap(org.hibernate.engine.spi.SessionFactoryImplementor.class)
                    .getServiceRegistry().requireService(org.hibernate.engine.jdbc.connections.spi.ConnectionProvider.class)
                    .unwrap(RoutingConnectionProvider.class);
            assertTrue(provider.primaryProvider().getClass().getSimpleName().contains("Hikari"),
                    provider.primaryProvider().getClass().getName());
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
        }
    }

    @Test
    void emptyReplicaListFailsNamingTheKey() {
        assertNames(startupFails(with("hibernate.rwsplit.replicas", "   ")), "hibernate.rwsplit.replicas");
    }

    @Test
    void malformedReplicaUrlFailsNamingKeyAndValue() {
        assertNames(startupFails(with("hibernate.rwsplit.replicas", "r1=mysql://nohost")),
                "hibernate.rwsplit.replicas", "mysql://nohost");
        Map<String, Object> settings = with("hibernate.rwsplit.replicas", "r1");
        settings.put("hibernate.rwsplit.replica.r1.url", "jdbc:");
        assertNames(startupFails(settings), "hibernate.rwsplit.replica.r1.url", "'jdbc:'");
    }

    @Test
    void unknownOptionFailsNamingTheKey() {
        assertNames(startupFails(with("hibernate.rwsplit.replica.replica1.wieght", "2")),
                "hibernate.rwsplit.replica.replica1.wieght");
        assertNames(startupFails(with("hibernate.rwsplit.fallbak", "primary")), "hibernate.rwsplit.fallbak");
        assertNames(startupFails(with("hibernate.rwsplit.replica.nosuch.weight", "2")), "nosuch");
        assertNames(startupFails(with("hibernate.rwsplit.pool.maximumPoolSise", "2")), "hibernate.rwsplit.pool.");
    }

    @Test
    void negativeWeightFailsNamingKeyAndValue() {
        assertNames(startupFails(with("hibernate.rwsplit.replica.replica1.weight", "-1")),
                "hibernate.rwsplit.replica.replica1.weight", "'-1'");
        assertNames(startupFails(with("hibernate.rwsplit.replica.replica1.tier", "zero")),
                "hibernate.rwsplit.replica.replica1.tier", "'zero'");
    }

    @Test
    void badEnumAndDurationValuesFailNamingKeyAndValue() {
        assertNames(startupFails(with("hibernate.rwsplit.fallback", "sometimes")), "hibernate.rwsplit.fallback",
                "'sometimes'", "primary, fail");
        assertNames(startupFails(with("hibernate.rwsplit.load_balancer", "fastest")), "hibernate.rwsplit.load_balancer",
                "fastest");
        assertNames(startupFails(with("hibernate.rwsplit.max_lag", "-5s")),
                "hibernate.rwsplit.max_lag", "-5s");
    }

    @Test
    void providerDisablesAutocommitIsRefusedWithoutATransactionStatus() {
        assertNames(startupFails(with("hibernate.connection.provider_disables_autocommit", "true")),
                "hibernate.connection.provider_disables_autocommit", "'true'", "hibernate.rwsplit.transaction_status");
    }

    @Test
    void providerDisablesAutocommitIsAcceptedWithATransactionStatus() {
        AtomicReference<Object> tx = new AtomicReference<>();
        Map<String, Object> settings = with("hibernate.connection.provider_disables_autocommit", "true");
        settings.put("hibernate.rwsplit.transaction_status", (TransactionStatus) tx::get);
        try (EntityManagerFactory emf = h2.factory(settings); EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            tx.set("tx-1"); // the status, not setAutoCommit(false), tells that a transaction runs: its reads stay on the primary
            em.clear();
            assertEquals("primary-alice", em.find(Person.class, 1L).name);
            tx.set(null);
        }
    }

    @Test
    void duplicateReplicaNamesAreRefused() {
        assertNames(startupFails(with("hibernate.rwsplit.replicas", "a=" + h2.replicaUrl + " a=" + h2.replica2Url)),
                "'a' appears twice");
    }

    @Test
    void unreachableReplicaAtStartupDoesNotStopTheApplication() {
        Map<String, Object> settings = with("hibernate.rwsplit.replicas", "down=jdbc:h2:tcp://127.0.0.1:1/x up=" + h2.replicaUrl);
        settings.put("hibernate.rwsplit.pool.connectionTimeout", "250");
        try (EntityManagerFactory emf = h2.factory(settings)) {
            for (int i = 0; i < 4; i++) {
                try (EntityManager em = emf.createEntityManager()) {
                    assertEquals("replica-alice", em.find(Person.class, 1L).name);
                }
            }
            assertEquals(Map.of("up", 4L), RwSplit.statistics(emf).byReplica());
        }
    }
}
