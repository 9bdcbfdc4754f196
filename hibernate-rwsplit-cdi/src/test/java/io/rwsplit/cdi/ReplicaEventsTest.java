package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
        final CountDownLatch first = new CountDownLatch(1);

        void on(@Observes ReplicaStateChanged event) {
            seen.add(event);
            first.countDown();
        }

        boolean awaitFirst() throws InterruptedException {
            return first.await(30, TimeUnit.SECONDS);
        }

        List<ReplicaStateChanged> seen() {
            return seen;
        }
    }

    private Map<String, String> oneGoodOneGone() {
        TestDatabases db = unit.databases();
        return Map.of(
                "rwsplit.cdi.primary.url", db.primaryUrl, "rwsplit.cdi.primary.user", "sa",
                "rwsplit.cdi.replicas", "good gone",
                "rwsplit.cdi.replica.good.url", db.replicaUrl,
                "rwsplit.cdi.replica.gone.url", "jdbc:h2:mem:gone_" + UUID.randomUUID() + ";IFEXISTS=TRUE",
                "rwsplit.cdi.acquisition_timeout", "PT1S");
    }

    private static EntityManagerFactory unit(RwSplitDataSources pools) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("events").managedClass(Person.class);
        pools.properties().forEach(cfg::property);
        // the test thread's reads on each replica in turn: one of the three reaches the one that is gone
        cfg.property("hibernate.rwsplit.load_balancer", "round_robin");
        return cfg.createEntityManagerFactory();
    }

    private static void readThreeTimes(EntityManagerFactory emf) {
        for (int i = 0; i < 3; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals("replica-alice", em.find(Person.class, 1L).name);
            }
        }
    }

    @Test
    void watchedUnitReportsTheChangeOnItsOwn() throws InterruptedException {
        try (RwSplitDataSources pools = RwSplitDataSources.build(oneGoodOneGone());
             EntityManagerFactory emf = unit(pools)) {
            replicaEvents.watch(emf, Duration.ofMillis(20));
            readThreeTimes(emf);
            assertTrue(observer.awaitFirst(), "no event within 30 s");
            assertEquals("gone", observer.seen().get(0).replica());
        }
    }

    @Test
    void replicaThatCannotBeReachedIsReportedOnceAsAnEvent() {
        try (RwSplitDataSources pools = RwSplitDataSources.build(oneGoodOneGone())) {
            try (EntityManagerFactory emf = unit(pools)) {
                // the monitor may notice before the reads do: collect the changes of every check
                List<ReplicaStateChanged> changes = new ArrayList<>(replicaEvents.check(emf));
                readThreeTimes(emf);
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
