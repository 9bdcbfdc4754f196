package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.Intent;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.TransactionStatus;

/**
 * The hooks a container uses: {@link TransactionStatus} (JTA boundaries, which never pass through
 * {@code setAutoCommit}) and {@link RoutingIntentSource} (the intent of interceptors that do not know the session).
 */
class ContainerHooksTest {

    private H2Pair h2;
    private EntityManagerFactory emf;
    /** The "JTA transaction" of the test thread: a key, or null outside one. */
    private final AtomicReference<Object> externalTx = new AtomicReference<>();
    private final AtomicReference<Intent> ambient = new AtomicReference<>(Intent.NONE);
    private final AtomicReference<Consistency> ambientLevel = new AtomicReference<>();

    @BeforeEach
    void setUp() {
        h2 = new H2Pair();
        Map<String, Object> settings = h2.settings();
        settings.put(RwSplitSettings.TRANSACTION_STATUS, (TransactionStatus) externalTx::get);
        settings.put(RwSplitSettings.INTENT_SOURCE, new RoutingIntentSource() {
            @Override
            public Intent currentIntent() {
                return ambient.get();
            }

            @Override
            public Consistency currentConsistency() {
                return ambientLevel.get();
            }
        });
        emf = h2.factory(settings);
    }

    @AfterEach
    void tearDown() {
        emf.close();
        h2.close();
    }

    private static long reason(EntityManager em, RouteReason reason) {
        return RwSplit.statistics(em).byReason().getOrDefault(reason.name(), 0L);
    }

    @Test
    void readsInsideAnExternalTransactionStayOnThePrimaryAndLeaveItWhenItEnds() {
        try (EntityManager em = emf.createEntityManager()) {
            externalTx.set("tx-1");
            assertEquals("primary-alice", name(em, 1L));
            assertEquals(1, reason(em, RouteReason.WRITE_TRANSACTION));
            externalTx.set(null);
            assertEquals("replica-alice", name(em, 1L));
            assertEquals(1, reason(em, RouteReason.REPLICA_READ));
        }
    }

    @Test
    void externalTransactionBegunUnderReplicaIntentReadsFromAReplica() {
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.onReplica(em, () -> {
                externalTx.set("tx-2");
                assertEquals("replica-alice", name(em, 1L));
                return null;
            });
            assertEquals(1, reason(em, RouteReason.READ_ONLY_TRANSACTION));
            // the next transaction is a new one, begun without the intent: read-write
            externalTx.set("tx-3");
            assertEquals("primary-bob", name(em, 2L));
            externalTx.set(null);
        }
    }

    @Test
    void ambientPrimaryIntentAppliesToSessionsWithoutTheirOwn() {
        try (EntityManager em = emf.createEntityManager()) {
            ambient.set(Intent.PRIMARY);
            assertEquals("primary-alice", name(em, 1L));
            assertEquals(1, reason(em, RouteReason.PRIMARY_HINT));
            // the session's own intent wins over the ambient one
            assertEquals("replica-bob", RwSplit.onReplica(em, () -> name(em, 2L)));
            ambient.set(Intent.NONE);
            assertEquals("replica-alice", name(em, 1L));
        }
    }

    @Test
    void ambientReplicaIntentMakesATransactionBegunUnderItReadOnlyByPreference() {
        try (EntityManager em = emf.createEntityManager()) {
            ambient.set(Intent.REPLICA);
            em.getTransaction().begin();
            assertEquals("replica-alice", name(em, 1L));
            em.getTransaction().commit();
            ambient.set(Intent.NONE);
            em.getTransaction().begin();
            assertEquals("primary-alice", name(em, 1L));
            em.getTransaction().commit();
        }
    }

    @Test
    void ambientConsistencyLevelReplacesTheSessionsWhileSet() {
        try (EntityManager em = emf.createEntityManager()) {
            ambientLevel.set(Consistency.strong());
            assertEquals("primary-alice", name(em, 1L));
            assertEquals(1, reason(em, RouteReason.STRONG_CONSISTENCY));
            ambientLevel.set(null);
            RwSplit.consistency(em, Consistency.strong());
            assertEquals("replica-alice", RwSplit.withConsistency(em, Consistency.eventual(), () -> name(em, 1L)));
            ambientLevel.set(Consistency.eventual());
            assertEquals("replica-alice", name(em, 1L));
        }
    }

    @Test
    void transactionSynchronizationRegistryGivesTheTransactionBoundaries() {
        FakeRegistry registry = new FakeRegistry();
        Map<String, Object> settings = h2.settings();
        settings.put(RwSplitSettings.TRANSACTION_STATUS, registry);
        try (EntityManagerFactory jta = h2.factory(settings); EntityManager em = jta.createEntityManager()) {
            registry.key = "jta-1";
            registry.status = jakarta.transaction.Status.STATUS_ACTIVE;
            assertEquals("primary-alice", name(em, 1L));
            registry.status = jakarta.transaction.Status.STATUS_MARKED_ROLLBACK;
            assertEquals("primary-bob", name(em, 2L));
            registry.key = null;
            registry.status = jakarta.transaction.Status.STATUS_NO_TRANSACTION;
            assertEquals("replica-alice", name(em, 1L));
        }
    }

    /** The two calls the adapter makes. */
    private static final class FakeRegistry implements jakarta.transaction.TransactionSynchronizationRegistry {
        volatile Object key;
        volatile int status = jakarta.transaction.Status.STATUS_NO_TRANSACTION;

        @Override
        public Object getTransactionKey() {
            return key;
        }

        @Override
        public int getTransactionStatus() {
            return status;
        }

        @Override
        public void putResource(Object k, Object value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object getResource(Object k) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void registerInterposedSynchronization(jakarta.transaction.Synchronization sync) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setRollbackOnly() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean getRollbackOnly() {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void jtaUnitWithoutTransactionStatusFailsAtStartupNamingTheKey() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.transaction.coordinator_class", "jta");
        Exception e = assertThrows(Exception.class, () -> h2.factory(settings).close());
        assertTrue(messages(e).contains(RwSplitSettings.TRANSACTION_STATUS), messages(e));
    }

    @Test
    void transactionStatusOfTheWrongTypeFailsAtStartupNamingKeyAndValue() {
        Map<String, Object> settings = h2.settings();
        settings.put(RwSplitSettings.TRANSACTION_STATUS, 42);
        Exception e = assertThrows(Exception.class, () -> h2.factory(settings).close());
        assertTrue(messages(e).contains("invalid value '42' for setting '" + RwSplitSettings.TRANSACTION_STATUS + "'"),
                messages(e));
    }

    private String name(EntityManager em, long id) {
        em.clear();
        return em.find(Person.class, id).name;
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
