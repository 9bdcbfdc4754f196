package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;

import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.metrics.RwSplitMetrics;

/**
 * Saturation is not failure, through Hibernate with real HikariCP pools of one connection that wait 1 s: a read
 * that finds the replica pool busy goes to the primary with its own reason, visible in statistics and meters, and
 * the replica stays UP; a busy primary pool fails that statement as it does without the module, and does not open
 * the circuit breaker, so the next write succeeds.
 */
class BusyPoolsTest {

    private final H2Pair h2 = new H2Pair();
    private EntityManagerFactory emf;

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
        h2.close();
    }

    private EntityManagerFactory factory(Map<String, Object> extra) {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "r1=" + h2.replicaUrl);
        settings.put("hibernate.rwsplit.pool.maximumPoolSize", "1");
        settings.put("hibernate.rwsplit.pool.connectionTimeout", "1000");
        settings.put("hibernate.hikari.maximumPoolSize", "1");
        settings.put("hibernate.hikari.connectionTimeout", "1000");
        // no probe closes an open breaker behind the test's back: what the acquisitions did decides
        settings.put("hibernate.rwsplit.probe_interval", "1h");
        settings.putAll(extra);
        emf = h2.factory(settings);
        return emf;
    }

    @Test
    void aReadThatFindsTheReplicaPoolBusyIsServedByThePrimaryAndTheReplicaStaysUp() {
        factory(Map.of());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RwSplitMetrics.bindTo(registry, emf, "unit", "test");
        try (EntityManager holder = emf.createEntityManager()) {
            holder.unwrap(Session.class).setDefaultReadOnly(true);
            holder.getTransaction().begin();
            // a read-only transaction keeps its replica connection, the pool's only one, until it ends
            assertEquals("replica-alice", holder.find(Person.class, 1L).name);
            try (EntityManager reader = emf.createEntityManager()) {
                assertEquals("primary-alice", reader.find(Person.class, 1L).name, "after 1 s in vain");
            }
            holder.getTransaction().commit();
        }
        Map<String, Long> reasons = RwSplit.statistics(emf).byReason();
        assertEquals(1L, reasons.get(RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name()));
        assertNull(reasons.get(RouteReason.NO_HEALTHY_REPLICA.name()));
        assertEquals(ReplicaState.UP, RwSplit.health(emf).status("r1").state());
        assertEquals(1.0, registry.get("rwsplit.statements")
                .tags("target", "primary", "reason", RouteReason.REPLICA_POOL_EXHAUSTED_PRIMARY.name(), "unit", "test")
                .functionCounter().count());
        assertEquals(0.0, registry.get("rwsplit.replica.ejections").tag("replica", "r1").functionCounter().count());
        assertEquals(1.0, registry.get("rwsplit.replica.state").tags("replica", "r1", "state", "UP").gauge().value());
        assertEquals(0.5, registry.get("rwsplit.replica.share").gauge().value(), 1e-9);

        try (EntityManager reader = emf.createEntityManager()) {
            assertEquals("replica-alice", reader.find(Person.class, 1L).name, "the replica serves once its pool lends");
        }
    }

    @Test
    void aBusyPrimaryPoolDoesNotOpenTheBreakerAndTheNextWriteSucceeds() {
        // one counted failure would open the breaker for 5 s
        factory(Map.of("hibernate.rwsplit.primary_failure_threshold", "1"));
        try (EntityManager writer = emf.createEntityManager()) {
            writer.getTransaction().begin();
            writer.persist(new Item("holds the primary pool's only connection"));
            try (EntityManager other = emf.createEntityManager()) {
                other.getTransaction().begin();
                assertThrows(PersistenceException.class, () -> other.persist(new Item("waits 1 s, in vain")),
                        "the pool's timeout reaches the application, as without the module");
                other.getTransaction().rollback();
            }
            writer.getTransaction().commit();
        }
        try (EntityManager next = emf.createEntityManager()) {
            next.getTransaction().begin();
            Item item = new Item("the next write");
            next.persist(item);
            next.getTransaction().commit();
            assertNotNull(item.id);
        }
    }
}
