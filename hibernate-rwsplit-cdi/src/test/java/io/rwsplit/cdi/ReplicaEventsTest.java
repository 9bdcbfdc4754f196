package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

import io.rwsplit.health.ReplicaState;

/** A replica leaving rotation is observable as a CDI event. */
@EnableWeld
class ReplicaEventsTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(Observer.class);

    @Inject
    TestUnit unit;

    @Inject
    ReplicaStateEvents replicaEvents;

    @Inject
    Observer observer;

    @ApplicationScoped
    public static class Observer {
        final List<ReplicaStateChanged> seen = new CopyOnWriteArrayList<>();

        void on(@Observes ReplicaStateChanged event) {
            seen.add(event);
        }

        List<ReplicaStateChanged> seen() {
            return seen;
        }
    }

    @Test
    void replicaThatCannotBeReachedIsReportedOnceAsAnEvent() {
        TestDatabases db = unit.databases();
        Map<String, String> config = Map.of(
                "rwsplit.cdi.primary.url", db.primaryUrl, "rwsplit.cdi.primary.user", "sa",
                "rwsplit.cdi.replicas", "good gone",
                "rwsplit.cdi.replica.good.url", db.replicaUrl,
                "rwsplit.cdi.replica.gone.url", "jdbc:h2:mem:gone_" + UUID.randomUUID() + ";IFEXISTS=TRUE",
                "rwsplit.cdi.acquisition_timeout", "PT1S");
        try (RwSplitDataSources pools = RwSplitDataSources.build(config)) {
            HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("events").managedClass(Person.class);
            pools.properties().forEach(cfg::property);
            try (EntityManagerFactory emf = cfg.createEntityManagerFactory()) {
                // the monitor may notice before the reads do: collect the changes of every check
                List<ReplicaStateChanged> changes = new ArrayList<>(replicaEvents.check(emf));
                for (int i = 0; i < 3; i++) {
                    try (EntityManager em = emf.createEntityManager()) {
                        assertEquals("replica-alice", em.find(Person.class, 1L).name);
                    }
                }
                changes.addAll(replicaEvents.check(emf));
                assertEquals(1, changes.size(), changes.toString());
                ReplicaStateChanged change = changes.get(0);
                assertEquals("gone", change.replica());
                assertEquals(ReplicaState.UP, change.previous());
                assertNotEquals(ReplicaState.UP, change.state());
                assertTrue(change.status().lastError() != null, change.toString());
                assertEquals(changes, observer.seen());
                // nothing changed since: no new event
                assertEquals(List.of(), replicaEvents.check(emf));
                assertEquals(1, observer.seen().size());
            }
        }
    }
}
