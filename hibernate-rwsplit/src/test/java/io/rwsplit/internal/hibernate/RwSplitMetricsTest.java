package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rwsplit.metrics.RwSplitMetrics;
import io.rwsplit.internal.replica.ReplicaSet;

/** Meters are read at scrape time from the statistics and the health snapshot. */
class RwSplitMetricsTest {

    private final H2Pair h2 = new H2Pair();
    private EntityManagerFactory emf;

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
        h2.close();
    }

    @Test
    void metersFollowRoutingAndHealth() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "r1=" + h2.replicaUrl);
        settings.put("hibernate.rwsplit.recovery_period", "PT1H");
        emf = h2.factory(settings);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RwSplitMetrics.bindTo(registry, emf, "unit", "test");

        for (int i = 0; i < 3; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                em.find(Person.class, 1L);
            }
        }
        assertEquals(3.0, registry.get("rwsplit.statements").tags("target", "replica", "reason", "REPLICA_READ", "unit", "test")
                .functionCounter().count());
        assertEquals(3.0, registry.get("rwsplit.replica.statements").tag("replica", "r1").functionCounter().count());
        assertEquals(1.0, registry.get("rwsplit.replica.state").tags("replica", "r1", "state", "UP").gauge().value());
        assertEquals(1.0, registry.get("rwsplit.replica.share").gauge().value());
        assertEquals(1.0, registry.get("rwsplit.reads.replica.share").gauge().value(), 1e-9, "3 reads of 3 on the replica");

        ReplicaSet replicas = ((RoutingConnectionProvider) emf.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .getService(ConnectionProvider.class)).router().replicas();
        replicas.markDown(replicas.nodes().get(0), new java.sql.SQLException("gone", "08006"));
        try (EntityManager em = emf.createEntityManager()) {
            em.find(Person.class, 1L);
        }
        assertEquals(0.0, registry.get("rwsplit.replica.state").tags("replica", "r1", "state", "UP").gauge().value());
        assertEquals(1.0, registry.get("rwsplit.replica.ejections").tag("replica", "r1").functionCounter().count());
        assertEquals(1.0, registry.get("rwsplit.fallbacks").functionCounter().count());
        assertEquals(0.75, registry.get("rwsplit.replica.share").gauge().value(), 1e-9);
        assertEquals(0.75, registry.get("rwsplit.reads.replica.share").gauge().value(), 1e-9, "then one on the primary");
        assertEquals(0.0, registry.get("rwsplit.read.retries").tag("target", "primary").functionCounter().count());
        assertNotNull(registry.get("rwsplit.replica.lag").tag("replica", "r1").gauge());
        assertEquals(0.0, registry.get("rwsplit.reads.checked").functionCounter().count(),
                "H2 has no positions: no read is checked");
        assertEquals(0.0, registry.get("rwsplit.reads.checked.failed").functionCounter().count());
        assertEquals(0.0, registry.get("rwsplit.replica.position.queries").functionCounter().count());
    }
}
