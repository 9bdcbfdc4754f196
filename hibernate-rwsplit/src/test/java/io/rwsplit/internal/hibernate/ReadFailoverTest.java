package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;

import org.hibernate.Session;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.route.Router;

/**
 * Failover of reads on H2: replica r1 answers "replica-...", r2 "replica2-...", the primary "primary-...".
 * A replica whose statement fails with a connection error is ejected at once; an autocommit read is
 * re-executed once elsewhere with the same parameters; a read in a transaction is never retried.
 */
class ReadFailoverTest {

    private final H2Pair h2 = new H2Pair();
    private final FlakyDataSource r1 = new FlakyDataSource(h2.replicaUrl);
    private final FlakyDataSource r2 = new FlakyDataSource(h2.replica2Url);
    private EntityManagerFactory emf;

    private EntityManagerFactory factory(Map<String, Object> extra) {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "r1 r2");
        settings.put("hibernate.rwsplit.replica.r1.datasource", r1);
        settings.put("hibernate.rwsplit.replica.r2.datasource", r2);
        // probes would bring an ejected replica back after the recovery period: keep it out for the test
        settings.put("hibernate.rwsplit.recovery_period", "PT1H");
        // the replicas in turn, r1 first: the test thread's reads reach the replica each test makes fail
        settings.put("hibernate.rwsplit.load_balancer", "round_robin");
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

    private Router router() {
        return ((io.rwsplit.internal.hibernate.RoutingConnectionProvider) emf.unwrap(SessionFactoryImplementor.class)
                .getServiceRegistry().getService(ConnectionProvider.class)).router();
    }

    @Test
    void autocommitReadFailsOverToTheOtherReplicaWithTheSameParameters() {
        factory(Map.of());
        r1.failing = true;
        for (int i = 0; i < 10; i++) {
            assertEquals("replica2-bob", find(2L));
        }
        assertEquals(1, r1.failedExecutions.get(), "ejected after the first failure, never tried again");
        RoutingStatistics stats = RwSplit.statistics(emf);
        assertEquals(1L, stats.byReason().get("RETRY_REPLICA"));
        // DOWN, or LAGGING once a probe reached it again (it stays out for the recovery period)
        assertTrue(RwSplit.health(emf).status("r1").state() != ReplicaState.UP);
        assertTrue(RwSplit.health(emf).status("r1").lastError().contains("socket closed by peer"));
        assertEquals(1L, RwSplit.health(emf).ejections().get("r1"));
    }

    @Test
    void readFailsOverToThePrimaryWhenNoOtherReplicaIsUp() {
        factory(Map.of());
        r2.failing = true;
        assertEquals("replica-alice", find(1L));
        assertEquals("replica-alice", find(1L), "r2 failed once and was ejected; r1 serves");
        r1.failing = true;
        assertEquals("primary-alice", find(1L), "r1 fails too: retried on the primary");
        assertEquals("primary-alice", find(1L));
        Map<String, Long> reasons = RwSplit.statistics(emf).byReason();
        assertEquals(1L, reasons.get("RETRY_PRIMARY"));
        assertEquals(1L, reasons.get("NO_HEALTHY_REPLICA"));
        assertEquals(1L, reasons.get("RETRY_REPLICA"));
        // replica decisions: r1, r2 (failed), r1 (retry), r1 (failed); fell back: RETRY_PRIMARY, NO_HEALTHY_REPLICA
        assertEquals(4.0 / 6, RwSplit.statistics(emf).replicaReadShare(), 1e-9);
    }

    @Test
    void aReadWhoseReplicaWasChosenForAConsistencyBoundIsRetriedOnThePrimaryOnly() {
        factory(Map.of("hibernate.rwsplit.consistency", "bounded_staleness:PT5S"));
        r1.failing = true;
        assertEquals("primary-alice", find(1L), "r2 was not checked against the bound for this read");
        Map<String, Long> reasons = RwSplit.statistics(emf).byReason();
        assertEquals(1L, reasons.get("RETRY_PRIMARY"));
        assertNull(reasons.get("RETRY_REPLICA"));
        assertEquals("replica2-alice", find(1L), "the next read chooses among the replicas still up");
    }

    @Test
    void readInsideATransactionIsNeverRetried() {
        factory(Map.of("hibernate.rwsplit.replica.r2.tier", "2"));
        r1.failing = true;
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            assertThrows(PersistenceException.class, () -> em.find(Person.class, 1L));
            em.getTransaction().rollback();
        }
        assertEquals(1, r1.failedExecutions.get());
        assertNull(RwSplit.statistics(emf).byReason().get("RETRY_REPLICA"));
        assertTrue(RwSplit.health(emf).status("r1").state() != ReplicaState.UP, "ejected all the same");
        // the next transaction goes to the tier-2 replica
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            assertEquals("replica2-alice", em.find(Person.class, 1L).name);
            em.getTransaction().commit();
        }
    }

    @Test
    void fallbackFailRaisesAClearErrorWhenNoReplicaIsHealthy() {
        factory(Map.of("hibernate.rwsplit.fallback", "fail"));
        for (ReplicaNode node : router().replicas().nodes()) {
            router().replicas().markDown(node, new java.sql.SQLException("test"));
        }
        PersistenceException e = assertThrows(PersistenceException.class, () -> find(1L));
        String messages = messages(e);
        assertTrue(messages.contains("no healthy replica") && messages.contains("hibernate.rwsplit.fallback"), messages);
    }

    @Test
    void failedReadWithFallbackFailAndNoOtherReplicaGoesToTheApplication() {
        factory(Map.of("hibernate.rwsplit.fallback", "fail", "hibernate.rwsplit.replica.r2.tier", "2"));
        router().replicas().markDown(router().replicas().nodes().get(1), new java.sql.SQLException("test"));
        r1.failing = true;
        PersistenceException e = assertThrows(PersistenceException.class, () -> find(1L));
        assertTrue(messages(e).contains("socket closed by peer"), messages(e));
    }

    @Test
    void inFlightCountsReturnToZeroWhenStatementsClose() {
        factory(Map.of("hibernate.rwsplit.load_balancer", "least_in_flight"));
        for (int i = 0; i < 20; i++) {
            find(1 + i % 2);
        }
        r1.failing = true;
        for (int i = 0; i < 5; i++) {
            find(1);
        }
        for (ReplicaNode node : router().replicas().nodes()) {
            assertEquals(0, node.inFlight(), node.name());
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
