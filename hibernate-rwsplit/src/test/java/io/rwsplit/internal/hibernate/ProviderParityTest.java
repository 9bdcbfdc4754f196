package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.SessionFactory;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.service.UnknownUnwrapTypeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

import io.rwsplit.RwSplitSettings;

/**
 * The single-primary and the multi-tenant providers are built by the same composition root: they refuse the same
 * settings with the same message, start their replica monitors the same way and unwrap like Hibernate's own.
 */
class ProviderParityTest {

    private H2Pair h2;

    @BeforeEach
    void setUp() {
        h2 = new H2Pair();
    }

    @AfterEach
    void tearDown() {
        h2.close();
    }

    private Map<String, Object> singleUnit() {
        return h2.settings();
    }

    private Map<String, Object> multiTenant() {
        Map<String, Object> s = h2.settings();
        s.remove(RwSplitSettings.REPLICAS);
        s.put(RwSplitSettings.TENANTS, "acme");
        s.put(RwSplitSettings.TENANT_PREFIX + "acme.url", h2.primaryUrl);
        s.put(RwSplitSettings.TENANT_PREFIX + "acme.user", "sa");
        s.put(RwSplitSettings.TENANT_PREFIX + "acme.replicas", h2.replicaUrl);
        return s;
    }

    private String startupFailure(Map<String, Object> settings) {
        Throwable t = assertThrows(Throwable.class, () -> h2.factory(settings).close());
        while (t != null && !(t instanceof ConnectionProviderConfigurationException)) {
            t = t.getCause();
        }
        assertTrue(t != null, "startup did not fail with a ConnectionProviderConfigurationException");
        return t.getMessage();
    }

    @ParameterizedTest
    @CsvSource({
            "hibernate.connection.provider_disables_autocommit, true",
            "hibernate.rwsplit.replica_cache_puts, yes",
            "hibernate.rwsplit.max_lag, -1s",
            "hibernate.rwsplit.probe_interval, 500",
            "hibernate.rwsplit.consistency, bounded_staleness:soon",
            "hibernate.rwsplit.consistency_scope, global",
            "hibernate.rwsplit.consistency_store, redis",
            "hibernate.rwsplit.clock, system",
            "hibernate.rwsplit.intent_source, com.example.Missing",
            "hibernate.rwsplit.max_lagg, 1s"})
    void bothProvidersRefuseABadSettingWithTheSameMessage(String key, String value) {
        Map<String, Object> single = singleUnit();
        single.put(key, value);
        Map<String, Object> tenants = multiTenant();
        tenants.put(key, value);
        String message = startupFailure(single);
        assertTrue(message.contains(key), message);
        assertEquals(message, startupFailure(tenants));
    }

    @Test
    void theMultiTenantProviderUnwrapsLikeHibernatesOwn() {
        try (EntityManagerFactory emf = h2.factory(multiTenant())) {
            MultiTenantConnectionProvider<?> provider = emf.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                    .getService(MultiTenantConnectionProvider.class);
            assertTrue(provider.isUnwrappableAs(RoutingMultiTenantConnectionProvider.class));
            assertEquals(provider, provider.unwrap(RoutingMultiTenantConnectionProvider.class));
            assertThrows(UnknownUnwrapTypeException.class, () -> provider.unwrap(SessionFactory.class));
        }
    }

    @Test
    void theMultiTenantProviderStartsItsTenantsMonitorsWhenHibernateStartsIt() throws InterruptedException {
        CountDownLatch ejected = new CountDownLatch(1);
        AppenderBase<ILoggingEvent> watch = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getFormattedMessage().contains("[acme] replica 'down' out of rotation")) {
                    ejected.countDown();
                }
            }
        };
        Logger log = (Logger) LoggerFactory.getLogger("io.rwsplit");
        watch.start();
        log.addAppender(watch);
        Map<String, Object> settings = multiTenant();
        settings.put(RwSplitSettings.TENANT_PREFIX + "acme.replicas", "down=jdbc:h2:tcp://127.0.0.1:1/x up=" + h2.replicaUrl);
        settings.put(RwSplitSettings.POOL_PREFIX + "connectionTimeout", "250");
        settings.put(RwSplitSettings.FAILURE_THRESHOLD, "1");
        settings.put(RwSplitSettings.PROBE_INTERVAL, "50ms");
        try (EntityManagerFactory emf = h2.factory(settings)) {
            assertTrue(ejected.await(30, TimeUnit.SECONDS), "the monitor never probed tenant acme's replicas");
        }
        finally {
            log.detachAppender(watch);
        }
    }
}
