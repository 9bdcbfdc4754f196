package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;

import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaState;

/**
 * A statement taken for a read that a read-only replica refuses as a write (SQLState 25006, what a
 * PostgreSQL hot standby answers to a function that writes): an autocommit one runs once more on the
 * primary and is reported; the replica stays in rotation; inside a transaction the error is the caller's.
 */
class RefusedWriteRetryTest {

    private final H2Pair h2 = new H2Pair();
    private final FlakyDataSource r1 = new FlakyDataSource(h2.replicaUrl);
    private EntityManagerFactory emf;

    private EntityManagerFactory factory() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "r1");
        settings.put("hibernate.rwsplit.replica.r1.datasource", r1);
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

    @Test
    void autocommitReadRefusedAsAWriteRunsOnceOnThePrimaryAndIsReported() {
        factory();
        r1.refusing = true;
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("primary-alice", em.find(Person.class, 1L).name);
            Map<String, Long> reasons = RwSplit.statistics(em).byReason();
            assertEquals(1L, reasons.get("REPLICA_REFUSED_WRITE"), reasons.toString());
            assertEquals(1L, reasons.get("REPLICA_READ"), "tried on the replica first");
        }
        assertEquals(1, r1.failedExecutions.get(), "tried once on the replica");
        assertEquals(ReplicaState.UP, RwSplit.health(emf).status("r1").state(), "a refusal is no replica failure");
        r1.refusing = false;
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("primary-alice", em.find(Person.class, 1L).name,
                    "the refused statement counts as a write: the unit's next reads honour it");
        }
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.consistency(em, Consistency.eventual());
            assertEquals("replica-alice", em.find(Person.class, 1L).name, "the replica keeps serving reads");
        }
    }

    @Test
    void aReadRefusedInAReadOnlyByPreferenceTransactionMovesItToThePrimaryAtReadCommitted() {
        factory();
        r1.refusing = true;
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            assertNotNull(em.find(Person.class, 1L), "run again on the primary");
            em.getTransaction().commit();
            assertEquals(1L, RwSplit.statistics(em).byReason().get("REPLICA_REFUSED_WRITE"));
        }
    }

    @Test
    void aReadRefusedInAReadOnlyByPreferenceTransactionAtRepeatableReadGoesToTheApplication() {
        factory();
        r1.refusing = true;
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            em.unwrap(Session.class).doWork(c -> c.setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ));
            PersistenceException e = assertThrows(PersistenceException.class, () -> em.find(Person.class, 1L));
            assertTrue(String.valueOf(e.getCause()).contains("REPEATABLE READ") || messages(e).contains("REPEATABLE READ"),
                    messages(e));
            em.getTransaction().rollback();
            assertNull(RwSplit.statistics(em).byReason().get("REPLICA_REFUSED_WRITE"));
        }
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
