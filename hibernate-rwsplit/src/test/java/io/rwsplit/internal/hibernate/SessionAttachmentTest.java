package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.resource.transaction.backend.jdbc.internal.JdbcResourceLocalTransactionCoordinatorBuilderImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplitSettings;

/**
 * Every session of a routing unit gets its routing part when it opens, whichever way the running Hibernate allows
 * (a session extension on 7.4, the transaction coordinator builder before), and the facade finds it until the session
 * ends. The second way is exercised here on the default release too, by handing Hibernate the wrapped builder.
 */
class SessionAttachmentTest {

    private final H2Pair dbs = new H2Pair();
    private EntityManagerFactory emf;

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
        dbs.close();
    }

    @Test
    void everySessionOfARoutingUnitHasItsRoutingPartFromTheStart() {
        emf = dbs.factory();
        try (EntityManager em = emf.createEntityManager()) {
            SharedSessionContractImplementor session = em.unwrap(SharedSessionContractImplementor.class);
            RwSplitSession routing = RwSplitSessions.find(session);
            assertNotNull(routing, "found before the session's first statement");
            assertSame(session, routing.session());
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            assertEquals(1, routing.statistics().replicaStatements());
        }
        try (StatelessSession stateless = emf.unwrap(SessionFactory.class).openStatelessSession()) {
            assertNotNull(RwSplitSessions.find((SharedSessionContractImplementor) stateless), "stateless sessions too");
        }
    }

    @Test
    void sessionsOfAUnitThatDoesNotRouteHaveNone() {
        Map<String, Object> settings = dbs.settings();
        settings.remove(RwSplitSettings.REPLICAS);
        emf = dbs.factory(settings);
        try (EntityManager em = emf.createEntityManager()) {
            assertNull(RwSplitSessions.find(em.unwrap(SharedSessionContractImplementor.class)));
        }
    }

    @Test
    void theCoordinatorBuilderPathAttachesEachSessionAndForgetsItWhenTheSessionEnds() {
        SessionTrackingCoordinatorBuilder builder =
                new SessionTrackingCoordinatorBuilder(JdbcResourceLocalTransactionCoordinatorBuilderImpl.INSTANCE);
        Map<String, Object> settings = dbs.settings();
        settings.put("hibernate.transaction.coordinator_class", builder);
        emf = dbs.factory(settings);

        SharedSessionContractImplementor first;
        SharedSessionContractImplementor second;
        try (EntityManager a = emf.createEntityManager(); EntityManager b = emf.createEntityManager()) {
            first = a.unwrap(SharedSessionContractImplementor.class);
            second = b.unwrap(SharedSessionContractImplementor.class);
            assertNotNull(builder.find(first));
            assertSame(first, builder.find(first).session());
            assertNotSame(builder.find(first), builder.find(second), "one routing part per session");
            assertEquals("replica-alice", a.find(Person.class, 1L).name);
        }
        assertNull(builder.find(first), "forgotten when the session closed");
        assertNull(builder.find(second), "forgotten when the session closed");

        StatelessSession stateless = emf.unwrap(SessionFactory.class).openStatelessSession();
        assertNotNull(builder.find((SharedSessionContractImplementor) stateless));
        stateless.close();
        assertNull(builder.find((SharedSessionContractImplementor) stateless));
    }

    @Test
    void aSessionDroppedWithoutClosingIsNotKeptByTheCoordinatorBuilderPath() throws InterruptedException {
        SessionTrackingCoordinatorBuilder builder =
                new SessionTrackingCoordinatorBuilder(JdbcResourceLocalTransactionCoordinatorBuilderImpl.INSTANCE);
        Map<String, Object> settings = dbs.settings();
        settings.put("hibernate.transaction.coordinator_class", builder);
        emf = dbs.factory(settings);
        java.lang.ref.ReferenceQueue<EntityManager> cleared = new java.lang.ref.ReferenceQueue<>();
        java.lang.ref.WeakReference<EntityManager> dropped = openAndDrop(cleared);
        assertEquals(1, builder.trackedSessions());
        // bounded: a few full collections clear a weakly reachable session on every collector the JDK ships; each
        // waits for the collector to enqueue the session's reference (its reference processing), not for time
        for (int i = 0; i < 50 && (dropped.get() != null || builder.trackedSessions() > 0); i++) {
            System.gc();
            cleared.remove(20);
        }
        assertNull(dropped.get(), "the application dropped the session");
        assertEquals(0, builder.trackedSessions(), "an unclosed session that the application dropped is not kept");
    }

    /** Opens a session, uses it, and drops it without closing it, as an application that leaks sessions does. */
    private java.lang.ref.WeakReference<EntityManager> openAndDrop(java.lang.ref.ReferenceQueue<EntityManager> cleared) {
        EntityManager em = emf.createEntityManager();
        assertEquals("replica-alice", em.find(Person.class, 1L).name);
        return new java.lang.ref.WeakReference<>(em, cleared);
    }

    @Test
    void theWrappedCoordinatorBuilderAnswersAsHibernatesOwn() {
        var hibernates = JdbcResourceLocalTransactionCoordinatorBuilderImpl.INSTANCE;
        SessionTrackingCoordinatorBuilder builder = new SessionTrackingCoordinatorBuilder(hibernates);
        assertEquals(hibernates.isJta(), builder.isJta());
        assertEquals(hibernates.getDefaultConnectionHandlingMode(), builder.getDefaultConnectionHandlingMode());
    }
}
