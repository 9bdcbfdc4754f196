package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;

import jakarta.enterprise.context.control.RequestContextController;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnitTransactionType;
import jakarta.transaction.Transactional;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.UsePrimary;

/**
 * A unit configured only with strings, as in {@code persistence.xml}: the hooks are given by class name
 * ({@link CdiRoutingHooks}) and find the CDI container themselves.
 */
@EnableWeld
class ClassNameHooksTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(ClassNameHooksTest.Service.class);

    @Inject
    TestUnit unit;

    @Inject
    Service service;

    @Inject
    RwSplitRequest request;

    @Inject
    RequestContextController requests;

    private EntityManagerFactory stringsOnly;

    @jakarta.enterprise.context.ApplicationScoped
    public static class Service {
        private EntityManagerFactory stringsOnly;

        void use(EntityManagerFactory emf) {
            this.stringsOnly = emf;
        }

        @UsePrimary
        public String nameOnPrimary(long id) {
            return Reads.name(stringsOnly, id);
        }

        @Transactional
        public String nameInTransaction(long id) {
            return Reads.name(stringsOnly, id);
        }

        public String name(long id) {
            return Reads.name(stringsOnly, id);
        }
    }

    @BeforeEach
    void buildUnitFromStrings() {
        Map<String, Object> p = new HashMap<>(unit.pools().properties());
        p.put(RwSplitSettings.INTENT_SOURCE, CdiRoutingHooks.class.getName());
        p.put(RwSplitSettings.SCOPE_RESOLVER, CdiRoutingHooks.class.getName());
        p.put(RwSplitSettings.TRANSACTION_STATUS, CdiRoutingHooks.class.getName());
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("strings-only")
                .managedClass(Person.class)
                .transactionType(PersistenceUnitTransactionType.JTA)
                .property("hibernate.transaction.jta.platform",
                        "org.hibernate.engine.transaction.jta.platform.internal.JBossStandAloneJtaPlatform");
        p.forEach(cfg::property);
        stringsOnly = cfg.createEntityManagerFactory();
        service.use(stringsOnly);
    }

    @AfterEach
    void close() {
        stringsOnly.close();
    }

    @Test
    void hooksGivenByClassNameRouteLikeObjects() {
        assertEquals("replica-alice", service.name(1));
        assertEquals("primary-alice", service.nameOnPrimary(1));
        assertEquals("primary-alice", service.nameInTransaction(1));
    }

    @Test
    void scopeResolverGivenByClassNameSeesTheRequestScope() {
        requests.activate();
        try {
            request.scopeKey("carol");
            assertEquals("carol", new CdiRoutingHooks().resolveScope());
            try (EntityManager em = stringsOnly.createEntityManager()) {
                assertEquals("replica-alice", em.find(Person.class, 1L).name);
            }
        }
        finally {
            requests.deactivate();
        }
    }
}
