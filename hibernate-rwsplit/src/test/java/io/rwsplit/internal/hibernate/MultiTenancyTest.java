package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.SessionFactory;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;

/** Two tenants, each with its own primary and replica, routed by the same code. */
class MultiTenancyTest {

    private H2Pair acme;
    private H2Pair globex;

    @BeforeEach
    void setUp() {
        acme = new H2Pair();
        globex = new H2Pair();
    }

    @AfterEach
    void tearDown() {
        acme.close();
        globex.close();
    }

    private Map<String, Object> settings() {
        Map<String, Object> s = new HashMap<>();
        s.put("hibernate.rwsplit.tenants", "acme globex");
        s.put("hibernate.rwsplit.tenant.acme.url", acme.primaryUrl);
        s.put("hibernate.rwsplit.tenant.acme.user", "sa");
        s.put("hibernate.rwsplit.tenant.acme.replicas", "acme-r=" + acme.replicaUrl);
        s.put("hibernate.rwsplit.tenant.globex.url", globex.primaryUrl);
        s.put("hibernate.rwsplit.tenant.globex.user", "sa");
        s.put("hibernate.rwsplit.tenant.globex.replicas", "globex-r=" + globex.replica2Url);
        s.put("jakarta.persistence.jdbc.url", acme.primaryUrl);
        return s;
    }

    @Test
    void eachTenantReadsItsOwnReplicaAndWritesItsOwnPrimary() {
        try (EntityManagerFactory emf = acme.factory(settings())) {
            SessionFactory sf = emf.unwrap(SessionFactory.class);
            try (var session = sf.withOptions().tenantIdentifier((Object) "acme").openSession()) {
                assertEquals("replica-alice", session.find(Person.class, 1L).name);
                session.getTransaction().begin();
                session.persist(new Person("acme-new"));
                session.getTransaction().commit();
                assertEquals(Map.of("acme-r", 1L), RwSplit.statistics(session).byReplica());
            }
            try (var session = sf.withOptions().tenantIdentifier((Object) "globex").openSession()) {
                assertEquals("replica2-alice", session.find(Person.class, 1L).name);
                assertEquals(Map.of("globex-r", 1L), RwSplit.statistics(session).byReplica());
            }
            assertEquals(Map.of("acme-r", 1L, "globex-r", 1L), RwSplit.statistics(emf).byReplica());
        }
        assertEquals("acme-new", acme.query(acme.primaryUrl, "select name from person where name = 'acme-new'"));
        assertEquals(2, globex.count(globex.primaryUrl, "person"));
        assertEquals(2, acme.count(acme.replicaUrl, "person"));
    }

    @Test
    void unknownTenantFailsNamingIt() {
        try (EntityManagerFactory emf = acme.factory(settings())) {
            SessionFactory sf = emf.unwrap(SessionFactory.class);
            try (var session = sf.withOptions().tenantIdentifier((Object) "initech").openSession()) {
                Exception e = assertThrows(Exception.class, () -> session.find(Person.class, 1L));
                Throwable t = e;
                boolean named = false;
                while (t != null) {
                    named |= String.valueOf(t.getMessage()).contains("initech");
                    t = t.getCause();
                }
                assertTrue(named, e.toString());
            }
        }
    }

    @Test
    void tenantOptionForUnlistedTenantFailsAtStartup() {
        Map<String, Object> s = settings();
        s.put("hibernate.rwsplit.tenant.initech.url", "jdbc:h2:mem:x");
        Throwable t = assertThrows(Throwable.class, () -> acme.factory(s).close());
        while (t != null && !(t instanceof ConnectionProviderConfigurationException)) {
            t = t.getCause();
        }
        assertTrue(t != null && t.getMessage().contains("hibernate.rwsplit.tenant.initech.url"), String.valueOf(t));
    }
}
