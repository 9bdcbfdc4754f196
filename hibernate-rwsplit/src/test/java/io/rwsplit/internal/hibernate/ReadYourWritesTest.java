package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.FakeClock;

/**
 * Read-your-writes on two H2 databases (no GTIDs, so {@code auto} means the time window) with a fake clock.
 * Person 1 is "primary-alice" on the primary and "replica-alice" on the replica, so each read shows who answered.
 */
class ReadYourWritesTest {

    private final H2Pair h2 = new H2Pair();
    private final FakeClock clock = new FakeClock();
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
        settings.put(RwSplitSettings.CLOCK, clock);
        settings.putAll(extra);
        emf = h2.factory(settings);
        return emf;
    }

    private EntityManagerFactory factory() {
        return factory(Map.of());
    }

    private void inSession(Consumer<EntityManager> work) {
        try (EntityManager em = emf.createEntityManager()) {
            work.accept(em);
        }
    }

    private static void rename(EntityManager em, String name) {
        em.getTransaction().begin();
        em.find(Person.class, 1L).name = name;
        em.getTransaction().commit();
    }

    private static String nameOfPerson1(EntityManager em) {
        em.clear();
        return em.find(Person.class, 1L).name;
    }

    private static RouteReason lastReason(EntityManager em) {
        return RwSplit.statistics(em).lastDecision().reason();
    }

    @Test
    void readsAfterACommitGoToThePrimaryUntilTheWindowEnds() {
        factory();
        inSession(em -> {
            assertEquals("replica-alice", nameOfPerson1(em));
            rename(em, "alice-v2");
            assertEquals("alice-v2", nameOfPerson1(em));
            assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, lastReason(em));
            clock.advance(Duration.ofMillis(1999));
            assertEquals("alice-v2", nameOfPerson1(em));
            clock.advance(Duration.ofMillis(1));
            assertEquals("replica-alice", nameOfPerson1(em));
            assertEquals(RouteReason.REPLICA_READ, lastReason(em));
        });
    }

    @Test
    void theWindowIsConfigurable() {
        factory(Map.of(RwSplitSettings.READ_YOUR_WRITES_WINDOW, "PT10S"));
        inSession(em -> {
            rename(em, "alice-v2");
            clock.advance(Duration.ofSeconds(9));
            assertEquals("alice-v2", nameOfPerson1(em));
            clock.advance(Duration.ofSeconds(1));
            assertEquals("replica-alice", nameOfPerson1(em));
        });
    }

    @Test
    void aNewSessionWithTheSameScopeReadsTheWrite() {
        factory();
        inSession(em -> {
            RwSplit.scope(em, "user-42");
            rename(em, "alice-v2");
        });
        inSession(em -> {
            RwSplit.scope(em, "user-42");
            assertEquals("alice-v2", nameOfPerson1(em));
            assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, lastReason(em));
        });
        inSession(em -> {
            RwSplit.scope(em, "user-7");
            assertEquals("replica-alice", nameOfPerson1(em), "another scope is not held back");
        });
        inSession(em -> {
            assertEquals("alice-v2", nameOfPerson1(em), "a session without a scope sees every write of the unit");
            assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, lastReason(em));
        });
    }

    @Test
    void aNewSessionWithoutAScopeSeesEveryEarlierWriteOfTheUnit() {
        factory();
        inSession(em -> rename(em, "alice-v2"));
        inSession(em -> {
            assertEquals("alice-v2", nameOfPerson1(em));
            assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, lastReason(em));
        });
        clock.advance(Duration.ofSeconds(2));
        inSession(em -> {
            assertEquals("replica-alice", nameOfPerson1(em), "the window applies to the unit's last write");
            assertEquals(RouteReason.REPLICA_READ, lastReason(em));
        });
    }

    @Test
    void aSessionThatBeganBeforeAnotherSessionsCommitSeesItAtItsNextRead() {
        factory();
        inSession(reader -> {
            assertEquals("replica-alice", nameOfPerson1(reader));
            inSession(writer -> rename(writer, "alice-v2"));
            assertEquals("alice-v2", nameOfPerson1(reader));
        });
    }

    @Test
    void withSessionScopeANewSessionSeesOnlyItsOwnWrites() {
        factory(Map.of(RwSplitSettings.CONSISTENCY_SCOPE, "session"));
        inSession(em -> {
            rename(em, "alice-v2");
            assertEquals("alice-v2", nameOfPerson1(em));
            assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, lastReason(em));
        });
        inSession(em -> assertEquals("replica-alice", nameOfPerson1(em)));
    }

    @Test
    void aNamedScopeDoesNotWaitForOtherScopesButTheUnitDefaultDoes() {
        factory();
        inSession(em -> {
            RwSplit.scope(em, "user-1");
            rename(em, "alice-v2");
        });
        inSession(em -> {
            RwSplit.scope(em, "user-2");
            assertEquals("replica-alice", nameOfPerson1(em));
        });
        inSession(em -> assertEquals("alice-v2", nameOfPerson1(em), "the unit's position includes named scopes' writes"));
    }

    @Test
    void aScopeResolverNamesTheScopeOfEverySession() {
        String[] current = {"user-1"};
        factory(Map.of(RwSplitSettings.SCOPE_RESOLVER, (io.rwsplit.spi.ScopeResolver) () -> current[0]));
        inSession(em -> rename(em, "alice-v2"));
        inSession(em -> assertEquals("alice-v2", nameOfPerson1(em)));
        current[0] = "user-2";
        inSession(em -> assertEquals("replica-alice", nameOfPerson1(em)));
    }

    @Test
    void aScopeResolverHandsItsUnitsRequirementToEverySessionAndLearnsTheirCommits() {
        io.rwsplit.position.ConsistencyToken[] carried = {null};
        java.util.List<io.rwsplit.position.ConsistencyToken> committed = new java.util.ArrayList<>();
        io.rwsplit.spi.ScopeResolver unit = new io.rwsplit.spi.ScopeResolver() {
            @Override
            public String resolveScope() {
                return null;
            }

            @Override
            public io.rwsplit.position.ConsistencyToken resolveRequirement() {
                return carried[0];
            }

            @Override
            public void committed(io.rwsplit.position.ConsistencyToken write) {
                committed.add(write);
            }
        };
        // consistency_scope=session: without the resolver's requirement a session is its own scope (the
        // unit-wide default would make every session honour the unit's writes by itself)
        factory(Map.of(RwSplitSettings.SCOPE_RESOLVER, unit, RwSplitSettings.CONSISTENCY_SCOPE, "session"));
        inSession(em -> rename(em, "alice-v2"));
        assertEquals(1, committed.size(), "the unit learns the commit of its session");
        inSession(em -> assertEquals("replica-alice", nameOfPerson1(em), "no requirement: a session is its own scope"));
        carried[0] = committed.get(0);
        inSession(em -> {
            assertEquals("alice-v2", nameOfPerson1(em), "a new session of the unit honours the write it carries");
            assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, lastReason(em));
        });
    }

    @Test
    void aRolledBackTransactionRecordsNothing() {
        factory();
        inSession(em -> {
            RwSplit.scope(em, "user-42");
            em.getTransaction().begin();
            em.find(Person.class, 1L).name = "never";
            em.flush();
            em.getTransaction().rollback();
            assertNull(RwSplit.token(em));
            assertEquals("replica-alice", nameOfPerson1(em));
        });
        inSession(em -> {
            RwSplit.scope(em, "user-42");
            assertEquals("replica-alice", nameOfPerson1(em));
        });
    }

    @Test
    void aReadOnlyTransactionRecordsNothing() {
        factory();
        inSession(em -> {
            em.getTransaction().begin();
            em.find(Person.class, 2L);
            em.getTransaction().commit();
            assertNull(RwSplit.token(em));
            assertEquals("replica-alice", nameOfPerson1(em));
        });
    }

    @Test
    void anAutocommitWriteCounts() {
        factory();
        inSession(em -> {
            em.unwrap(Session.class).doWork(c -> {
                try (PreparedStatement ps = c.prepareStatement("update person set name = 'alice-v3' where id = 1")) {
                    ps.executeUpdate();
                }
            });
            assertNotNull(RwSplit.token(em));
            assertEquals("alice-v3", nameOfPerson1(em));
        });
    }

    @Test
    void aBulkUpdateCounts() {
        factory();
        inSession(em -> {
            em.getTransaction().begin();
            em.createQuery("update Person p set p.name = 'bulk' where p.id = 1").executeUpdate();
            em.getTransaction().commit();
            assertEquals("bulk", nameOfPerson1(em));
        });
    }

    @Test
    void aTokenCarriesTheWriteToAnotherSession() {
        factory(Map.of(RwSplitSettings.CONSISTENCY_SCOPE, "session"));
        String[] token = new String[1];
        inSession(em -> {
            assertNull(RwSplit.token(em));
            rename(em, "alice-v2");
            token[0] = RwSplit.token(em);
        });
        assertNotNull(token[0]);
        inSession(em -> {
            assertEquals("replica-alice", nameOfPerson1(em));
            RwSplit.requireToken(em, token[0]);
            assertEquals("alice-v2", nameOfPerson1(em));
            assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, lastReason(em));
        });
    }

    @Test
    void aMalformedTokenIsRejectedByName() {
        factory();
        inSession(em -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RwSplit.requireToken(em, "not-a-token"));
            assertTrue(e.getMessage().contains("not-a-token"), e.getMessage());
        });
    }

    @Test
    void strongReadsFromThePrimaryAndEventualIgnoresWrites() {
        factory();
        inSession(em -> {
            RwSplit.consistency(em, Consistency.strong());
            assertEquals("primary-alice", nameOfPerson1(em));
            assertEquals(RouteReason.STRONG_CONSISTENCY, lastReason(em));
            RwSplit.consistency(em, Consistency.eventual());
            rename(em, "alice-v2");
            assertEquals("replica-alice", nameOfPerson1(em));
        });
    }

    @Test
    void theBlockFormRestoresTheLevel() {
        factory();
        inSession(em -> {
            String name = RwSplit.withConsistency(em, Consistency.strong(), () -> nameOfPerson1(em));
            assertEquals("primary-alice", name);
            assertEquals("replica-alice", nameOfPerson1(em));
        });
    }

    @Test
    void theDefaultLevelComesFromTheSetting() {
        factory(Map.of(RwSplitSettings.CONSISTENCY, "strong"));
        inSession(em -> assertEquals("primary-alice", nameOfPerson1(em)));
    }

    @Test
    void boundedStalenessUsesAReplicaWithinTheBound() {
        factory(Map.of(RwSplitSettings.CONSISTENCY, "bounded_staleness:PT1S"));
        inSession(em -> {
            assertEquals("replica-alice", nameOfPerson1(em));
            assertEquals(RouteReason.BOUNDED_STALENESS_REPLICA, lastReason(em));
        });
    }

    @Test
    void readOnlyTransactionsHonourTheWindowFromTheirFirstRead() {
        factory();
        inSession(em -> {
            rename(em, "alice-v2");
            em.clear();
            RwSplit.onReplica(em, () -> {
                em.getTransaction().begin();
                assertEquals("alice-v2", em.find(Person.class, 1L).name);
                assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, lastReason(em));
                em.getTransaction().commit();
                return null;
            });
        });
    }

    @Test
    void reasonsAreCountedSeparately() {
        factory();
        inSession(em -> {
            rename(em, "alice-v2");
            nameOfPerson1(em);
            nameOfPerson1(em);
            assertEquals(2L, RwSplit.statistics(em).byReason().get("UNIT_READ_YOUR_WRITES_PRIMARY"));
        });
        assertEquals(2L, RwSplit.statistics(emf).byReason().get("UNIT_READ_YOUR_WRITES_PRIMARY"));
    }

    @Test
    void gtidModeOnAServerWithoutGtidsFallsBackToTheWindow() {
        factory(Map.of(RwSplitSettings.READ_YOUR_WRITES, "gtid"));
        inSession(em -> {
            rename(em, "alice-v2");
            assertEquals("alice-v2", nameOfPerson1(em));
            assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, lastReason(em));
            clock.advance(Duration.ofSeconds(2));
            assertEquals("replica-alice", nameOfPerson1(em));
        });
    }

    @Test
    void aBlankScopeKeyIsRejected() {
        factory();
        inSession(em -> assertThrows(IllegalArgumentException.class, () -> RwSplit.scope(em, " ")));
    }

    @Test
    void aSessionWithoutWritesReadsFromReplicasAndHasNoToken() {
        factory();
        inSession(em -> {
            RwSplit.scope(em, "user-42");
            for (int i = 0; i < 3; i++) {
                assertEquals("replica-alice", nameOfPerson1(em));
            }
            assertEquals(3L, RwSplit.statistics(em).byReason().get("REPLICA_READ"));
            assertNull(RwSplit.token(em));
        });
    }
}
