package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;

/**
 * A failover of the primary under autocommit reads, on H2: the primary's data source refuses connections or
 * breaks executions for a while, as a primary that was killed and replaced behind the same URL does. The read
 * is served once the primary answers again; a write is never sent twice; a read gives up after the failover
 * wait (the breaker's cool-down plus one probe timeout).
 */
class PrimaryFailoverTest {

    private final H2Pair h2 = new H2Pair();
    private final FlakyDataSource primary = new FlakyDataSource(h2.primaryUrl);
    private EntityManagerFactory emf;

    private EntityManagerFactory factory(Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("hibernate.connection.datasource", primary);
        settings.put("hibernate.rwsplit.replicas", "r1=" + h2.replicaUrl);
        settings.put("hibernate.rwsplit.replica.r1.user", "sa");
        settings.put("hibernate.rwsplit.replica.r1.password", "");
        settings.put("hibernate.rwsplit.pool.maximumPoolSize", "2");
        // every read is one the primary must serve
        settings.put("hibernate.rwsplit.consistency", "strong");
        settings.put("hibernate.rwsplit.probe_interval", "10ms");
        settings.putAll(extra);
        emf = h2.factory(settings);
        return emf;
    }

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
        h2.close();
    }

    private String find(long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return em.find(Person.class, id).name;
        }
    }

    @Test
    void anAutocommitReadWhosePrimaryConnectionBreaksRunsAgainOnceThePrimaryAnswers() {
        factory(Map.of());
        primary.failNextExecutions.set(3); // three pooled connections to the old primary, dead one after the other
        assertEquals("primary-alice", find(1L));
        assertEquals(3, primary.failedExecutions.get());
        assertEquals(3L, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void anAutocommitReadWhosePrimaryBackendWasTerminatedRunsAgainOnceThePrimaryAnswers() {
        factory(Map.of());
        primary.terminateNextExecutions.set(2); // 57P01 "unexpected postmaster exit", the I/O error chained next
        assertEquals("primary-alice", find(1L));
        assertEquals(2, primary.failedExecutions.get());
        assertEquals(2L, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void anAutocommitReadWhosePrimaryConnectionWasClosedUnderItRunsAgain() {
        factory(Map.of());
        primary.closeNextExecutions.set(1); // as a pool closes a connection it found broken, whatever the error said
        assertEquals("primary-bob", find(2L));
        assertEquals(1L, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void aReadInATransactionWhosePrimaryBackendWasTerminatedIsNotRetried() {
        factory(Map.of());
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            primary.terminateNextExecutions.set(1);
            assertThrows(PersistenceException.class, () -> em.createNativeQuery("select name from person where id = 1")
                    .getSingleResult());
            em.getTransaction().rollback();
        }
        assertEquals(1, primary.failedExecutions.get());
        assertEquals(null, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void anAutocommitReadWaitsForThePrimaryToAcceptConnectionsAgain() {
        factory(Map.of());
        primary.refuseNextConnects.set(4);
        assertEquals("primary-bob", find(2L));
        assertEquals(4, primary.refusedConnects.get());
        assertEquals(1L, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void anAutocommitReadGivesUpAfterTheFailoverWait() {
        factory(Map.of("hibernate.rwsplit.primary_cool_down", "100ms", "hibernate.rwsplit.probe_timeout", "100ms"));
        primary.refuseNextConnects.set(Integer.MAX_VALUE);
        PersistenceException e = assertThrows(PersistenceException.class, () -> find(1L));
        assertTrue(messages(e).contains("simulated: connection refused"), messages(e));
        assertTrue(primary.refusedConnects.get() > 1, "tried again before giving up: " + primary.refusedConnects.get());
    }

    @Test
    void anInterruptedReadStopsWaitingForTheFailoverAndKeepsItsInterrupt() {
        factory(Map.of("hibernate.rwsplit.primary_cool_down", "30s"));
        primary.refuseNextConnects.set(Integer.MAX_VALUE);
        Thread.currentThread().interrupt();
        try {
            PersistenceException e = assertThrows(PersistenceException.class, () -> find(1L));
            assertTrue(messages(e).contains("simulated: connection refused"), messages(e));
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
            assertTrue(primary.refusedConnectsOfCreator.get() <= 2, "gave up at the interrupt instead of trying for 30 s: "
                    + primary.refusedConnectsOfCreator.get() + " attempts by the reading thread");
        }
        finally {
            Thread.interrupted();
        }
    }

    @Test
    void aWriteThatLostThePrimaryIsNeverSentAgain() {
        factory(Map.of());
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            em.createNativeQuery("update person set name = 'primary-carol' where id = 1").executeUpdate();
            primary.failNextExecutions.set(1);
            assertThrows(PersistenceException.class, () -> em.createNativeQuery(
                    "update person set name = 'primary-dave' where id = 2").executeUpdate());
            em.getTransaction().rollback();
        }
        assertEquals(0, primary.failNextExecutions.get());
        assertEquals("primary-bob", find(2L), "the failed update did not run a second time");
        assertEquals(null, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    @Test
    void anAutocommitWriteThatLostThePrimaryIsNeverSentAgain() {
        factory(Map.of());
        try (EntityManager em = emf.createEntityManager()) {
            org.hibernate.Session session = em.unwrap(org.hibernate.Session.class);
            primary.failNextExecutions.set(1);
            assertThrows(PersistenceException.class, () -> session.doWork(c -> {
                try (var ps = c.prepareStatement("update person set name = 'primary-erin' where id = 2")) {
                    ps.executeUpdate();
                }
            }));
        }
        assertEquals("primary-bob", find(2L));
        assertEquals(null, RwSplit.statistics(emf).byReason().get("RETRY_PRIMARY"));
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
            for (Throwable s : t.getSuppressed()) {
                sb.append("suppressed: ").append(s.getMessage()).append(" | ");
            }
        }
        return sb.toString();
    }
}
