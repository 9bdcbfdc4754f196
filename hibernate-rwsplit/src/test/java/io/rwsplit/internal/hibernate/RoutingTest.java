package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;

import org.hibernate.Interceptor;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.Target;

/**
 * Every routing rule on two H2 databases seeded with different rows: "primary-alice" vs "replica-alice"
 * tells which server answered.
 */
class RoutingTest {

    private H2Pair h2;
    private EntityManagerFactory emf;

    @BeforeEach
    void setUp() {
        h2 = new H2Pair();
        emf = h2.factory();
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
    void findOutsideTransactionReadsFromReplica() {
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            RoutingStatistics stats = RwSplit.statistics(em);
            assertEquals(1, stats.replicaStatements());
            assertEquals(0, stats.primaryStatements());
            assertEquals(Map.of("replica1", 1L), stats.byReplica());
            assertEquals(Target.REPLICA, stats.lastDecision().target());
            assertEquals(RouteReason.REPLICA_READ, stats.lastDecision().reason());
        }
    }

    @Test
    void jpqlAndCriteriaQueriesOutsideTransactionReadFromReplica() {
        try (EntityManager em = emf.createEntityManager()) {
            List<String> names = em.createQuery("select p.name from Person p order by p.id", String.class).getResultList();
            assertEquals(List.of("replica-alice", "replica-bob"), names);
            CriteriaBuilder cb = em.getCriteriaBuilder();
            CriteriaQuery<Person> q = cb.createQuery(Person.class);
            q.where(cb.equal(q.from(Person.class).get("name"), "replica-bob"));
            assertEquals(1, em.createQuery(q).getResultList().size());
            assertEquals(2, reason(em, RouteReason.REPLICA_READ));
        }
    }

    @Test
    void consecutiveStatementsOutsideTransactionMayUseDifferentServers() {
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            assertEquals("primary-bob", RwSplit.onPrimary(em, () -> em.find(Person.class, 2L).name));
            assertEquals(1, RwSplit.statistics(em).primaryStatements());
            assertEquals(1, RwSplit.statistics(em).replicaStatements());
        }
    }

    @Test
    void flushOfInsertUpdateAndDeleteGoesToPrimary() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            Person carol = new Person("carol");
            em.persist(carol);
            em.flush();
            carol.name = "carol2";
            em.flush();
            em.remove(em.getReference(Person.class, 2L));
            em.getTransaction().commit();
            assertTrue(reason(em, RouteReason.WRITE) >= 3);
            assertEquals(0, RwSplit.statistics(em).replicaStatements());
        }
        assertEquals("carol2", h2.query(h2.primaryUrl, "select name from person where name like 'carol%'"));
        assertNull(h2.query(h2.replicaUrl, "select name from person where name like 'carol%'"));
        assertNull(h2.query(h2.primaryUrl, "select name from person where id = 2"));
        assertEquals("replica-bob", h2.query(h2.replicaUrl, "select name from person where id = 2"));
    }

    @Test
    void aReadDuringAFlushGoesToThePrimaryEvenInAReadOnlyByPreferenceTransaction() {
        // Interceptor#preFlush runs after the session's flushStart event and before its persistence context says it
        // flushes (isFlushing): only the session's flush events tell the router that this read is part of a flush
        AtomicReference<Session> flushed = new AtomicReference<>();
        AtomicReference<String> readInFlush = new AtomicReference<>();
        Interceptor readsInPreFlush = new Interceptor() {
            @Override
            public void preFlush(Iterator<Object> entities) {
                readInFlush.set(flushed.get().doReturningWork(c -> {
                    try (PreparedStatement s = c.prepareStatement("select name from person where id = 2");
                         ResultSet rs = s.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                    }
                }));
            }
        };
        try (Session session = emf.unwrap(SessionFactory.class).withOptions().interceptor(readsInPreFlush).openSession()) {
            flushed.set(session);
            RwSplit.onReplica(session, () -> {
                session.getTransaction().begin();
                assertEquals("replica-alice", session.find(Person.class, 1L).name);   // managed: the flush runs
                session.flush();
                session.getTransaction().rollback();
            });
            assertEquals("primary-bob", readInFlush.get(), "a read in a flush was served by a replica");
            assertEquals(1, reason(session, RouteReason.FLUSH));
        }
    }

    @Test
    void jdbcBatchInsertGoesToPrimary() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.jdbc.batch_size", "10");
        try (EntityManagerFactory batching = h2.factory(settings); EntityManager em = batching.createEntityManager()) {
            em.getTransaction().begin();
            for (int i = 0; i < 25; i++) {
                em.persist(new Person("batch" + i));
            }
            em.getTransaction().commit();
            assertEquals(0, RwSplit.statistics(em).replicaStatements());
        }
        assertEquals(27, h2.count(h2.primaryUrl, "person"));
        assertEquals(2, h2.count(h2.replicaUrl, "person"));
    }

    @Test
    void sequenceGeneratedIdsComeFromThePrimarySequence() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            Person p = new Person("seq");
            em.persist(p);
            em.getTransaction().commit();
            assertTrue(p.id >= 1000 && p.id < 5000, "id from the primary's sequence: " + p.id);
            assertTrue(reason(em, RouteReason.PRIMARY_ONLY_STATEMENT) >= 1);
        }
    }

    @Test
    void sequenceCallOutsideTransactionGoesToPrimary() {
        try (EntityManager em = emf.createEntityManager()) {
            Number next = (Number) em.createNativeQuery("select next value for person_seq").getSingleResult();
            assertTrue(next.longValue() < 5000, "primary sequence: " + next);
        }
    }

    @Test
    void identityInsertRunsOnPrimaryAtPersist() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            Item item = new Item("identity");
            em.persist(item);
            assertNotNull(item.id);
            em.getTransaction().commit();
        }
        assertEquals(1, h2.count(h2.primaryUrl, "item"));
        assertEquals(0, h2.count(h2.replicaUrl, "item"));
    }

    @Test
    void pessimisticWriteAndReadFindsGoToPrimary() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            assertEquals("primary-alice", em.find(Person.class, 1L, LockModeType.PESSIMISTIC_WRITE).name);
            assertEquals("primary-bob", em.find(Person.class, 2L, LockModeType.PESSIMISTIC_READ).name);
            em.getTransaction().commit();
            assertEquals(0, RwSplit.statistics(em).replicaStatements());
        }
    }

    @Test
    void lockingReadOutsideTransactionGoesToPrimaryEvenWhenReplicaIsAllowed() {
        try (EntityManager em = emf.createEntityManager()) {
            Object name = RwSplit.onReplica(em, () -> em.createNativeQuery(
                    "select name from person where id = 1 for update").getSingleResult());
            assertEquals("primary-alice", name);
            assertEquals(1, reason(em, RouteReason.LOCKING_READ));
        }
    }

    @Test
    void emLockInTransactionGoesToPrimary() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            Person alice = em.find(Person.class, 1L);
            em.lock(alice, LockModeType.PESSIMISTIC_WRITE);
            em.getTransaction().commit();
            assertEquals("primary-alice", alice.name);
            assertEquals(0, RwSplit.statistics(em).replicaStatements());
        }
    }

    @Test
    void readWriteTransactionWhoseFirstStatementIsSelectReadsFromPrimary() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            assertEquals("primary-alice", em.find(Person.class, 1L).name);
            em.find(Person.class, 1L).name = "alice-updated";
            em.getTransaction().commit();
            assertEquals(1, reason(em, RouteReason.WRITE_TRANSACTION));
            assertEquals(0, RwSplit.statistics(em).replicaStatements());
        }
        assertEquals("alice-updated", h2.query(h2.primaryUrl, "select name from person where id = 1"));
    }

    @Test
    void transactionOfDefaultReadOnlySessionReadsFromOneReplica() {
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            assertEquals("replica-bob", em.find(Person.class, 2L).name);
            em.getTransaction().commit();
            assertEquals(2, reason(em, RouteReason.READ_ONLY_TRANSACTION));
        }
    }

    @Test
    void readOnlySessionOfHibernate72ReadsFromReplica() {
        SessionFactory sf = emf.unwrap(SessionFactory.class);
        try (Session session = sf.withOptions().readOnly(true).openSession()) {
            session.getTransaction().begin();
            assertEquals("replica-alice", session.find(Person.class, 1L).name);
            session.getTransaction().commit();
            assertEquals("replica-bob", session.find(Person.class, 2L).name);
            assertEquals(1, reason(session, RouteReason.READ_ONLY_TRANSACTION));
        }
    }

    @Test
    void readOnlyHintIsAReplicaReadOutsideTransactionButNeverBreaksReadWriteTransaction() {
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L, Map.of("org.hibernate.readOnly", true)).name);
            em.getTransaction().begin();
            List<String> names = em.createQuery("select p.name from Person p where p.id = 1", String.class)
                    .setHint("org.hibernate.readOnly", true).getResultList();
            em.getTransaction().commit();
            assertEquals(List.of("primary-alice"), names);
        }
    }

    @Test
    void jdbcReadOnlyTransactionRefusesWritesWithClearError() {
        try (EntityManager em = emf.createEntityManager()) {
            Session session = em.unwrap(Session.class);
            em.getTransaction().begin();
            session.doWork(c -> c.setReadOnly(true));
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            PersistenceException e = assertThrows(PersistenceException.class,
                    () -> em.createNativeQuery("update person set name = 'x' where id = 1").executeUpdate());
            assertTrue(e.getCause().getMessage().contains("refused in a read-only transaction"), e.getCause().getMessage());
            em.getTransaction().rollback();
        }
        assertEquals("primary-alice", h2.query(h2.primaryUrl, "select name from person where id = 1"));
        assertEquals("replica-alice", h2.query(h2.replicaUrl, "select name from person where id = 1"));
    }

    @Test
    void writeInReadOnlyByPreferenceTransactionGoesToPrimaryAndPinsTheRest() {
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.onReplica(em, () -> {
                em.getTransaction().begin();
                assertEquals("replica-alice", em.find(Person.class, 1L).name);
                em.persist(new Person("dave"));
                em.flush();
                assertEquals("primary-bob", em.find(Person.class, 2L).name);
                em.getTransaction().commit();
                return null;
            });
        }
        assertEquals("dave", h2.query(h2.primaryUrl, "select name from person where name = 'dave'"));
        assertNull(h2.query(h2.replicaUrl, "select name from person where name = 'dave'"));
    }

    @Test
    void rollbackLeavesNothingOnPrimaryOrReplica() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            em.persist(new Person("ghost"));
            em.flush();
            em.getTransaction().rollback();
        }
        assertEquals(2, h2.count(h2.primaryUrl, "person"));
        assertEquals(2, h2.count(h2.replicaUrl, "person"));
    }

    @Test
    void bulkHqlUpdateGoesToPrimary() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            int updated = em.createQuery("update Person p set p.name = 'bulk'").executeUpdate();
            em.getTransaction().commit();
            assertEquals(2, updated);
        }
        assertEquals(2, h2.count(h2.primaryUrl, "person where name = 'bulk'"));
        assertEquals(0, h2.count(h2.replicaUrl, "person where name = 'bulk'"));
    }

    @Test
    void nativeQueryReadsReplicaWithoutHintAndPrimaryWithHint() {
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.createNativeQuery("select name from person where id = 1").getSingleResult());
            assertEquals("primary-alice", em.createNativeQuery(
                    "/* rwsplit:primary */ select name from person where id = 1").getSingleResult());
            assertEquals(1, reason(em, RouteReason.PRIMARY_HINT));
        }
    }

    @Test
    void replicaHintInSqlIsReportedAsHint() {
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.createNativeQuery(
                    "/* rwsplit:replica */ select name from person where id = 1").getSingleResult());
            assertEquals(1, reason(em, RouteReason.REPLICA_HINT));
        }
    }

    @Test
    void malformedHintFailsWithMessageNamingIt() {
        try (EntityManager em = emf.createEntityManager()) {
            PersistenceException e = assertThrows(PersistenceException.class, () -> em.createNativeQuery(
                    "/* rwsplit:primray */ select name from person where id = 1").getSingleResult());
            String message = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            assertTrue(message.contains("primray"), message);
        }
    }

    @Test
    void doWorkPreparedStatementsAreRoutedByTheirSql() {
        try (EntityManager em = emf.createEntityManager()) {
            AtomicReference<String> read = new AtomicReference<>();
            em.unwrap(Session.class).doWork(c -> {
                try (var ps = c.prepareStatement("select name from person where id = 1"); ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    read.set(rs.getString(1));
                }
                try (Statement s = c.createStatement()) {
                    assertSame(c, s.getConnection(), "the statement leads back to the routing connection");
                    try (ResultSet rs = s.executeQuery("select name from person where id = 1")) {
                        assertTrue(rs.next());
                        assertEquals("replica-alice", rs.getString(1), "a createStatement read is routed by its SQL when it executes");
                    }
                    s.executeUpdate("insert into person (id, name) values (78, 'statement')");
                }
                try (var ps = c.prepareStatement("insert into person (id, name) values (77, 'work')")) {
                    assertSame(c, ps.getConnection());
                    ps.executeUpdate();
                }
            });
            assertEquals("replica-alice", read.get());
            assertEquals(2, reason(em, RouteReason.WRITE));
            assertEquals(2, reason(em, RouteReason.REPLICA_READ));
        }
        assertEquals("work", h2.query(h2.primaryUrl, "select name from person where id = 77"));
        assertEquals("statement", h2.query(h2.primaryUrl, "select name from person where id = 78"));
    }

    @Test
    void onPrimaryAndOnReplicaNestAndRestoreAlsoOnException() {
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.onPrimary(em, () -> {
                assertEquals("primary-alice", em.find(Person.class, 1L).name);
                em.clear();
                RwSplit.onReplica(em, () -> {
                    assertEquals("replica-alice", em.find(Person.class, 1L).name);
                    return null;
                });
                em.clear();
                assertThrows(IllegalStateException.class, () -> RwSplit.onReplica(em, () -> {
                    throw new IllegalStateException("boom");
                }));
                assertEquals("primary-alice", em.find(Person.class, 1L).name);
                return null;
            });
            em.clear();
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
        }
    }

    @Test
    void runnableBlocksRouteLikeSupplierBlocksAndCountsAreTypedByReason() {
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.onPrimary(em, () -> {
                em.find(Person.class, 1L);
            });
            em.clear();
            RwSplit.onReplica(em, () -> {
                em.find(Person.class, 2L);
            });
            em.clear();
            RwSplit.withConsistency(em, io.rwsplit.Consistency.strong(), () -> {
                em.find(Person.class, 1L);
            });
            RoutingStatistics stats = RwSplit.statistics(em);
            assertEquals(1, stats.count(RouteReason.PRIMARY_HINT));
            assertEquals(1, stats.count(RouteReason.REPLICA_HINT));
            assertEquals(1, stats.count(RouteReason.STRONG_CONSISTENCY));
            assertEquals(0, stats.count(RouteReason.WRITE));
            assertEquals(stats.byReason().get("REPLICA_HINT"), stats.count(RouteReason.REPLICA_HINT));
        }
        assertEquals(1, RwSplit.statistics(emf).count(RouteReason.REPLICA_HINT));
    }

    @Test
    void onReplicaNeverOverridesAReadWriteTransaction() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            String name = RwSplit.onReplica(em, () -> em.find(Person.class, 1L).name);
            em.getTransaction().commit();
            assertEquals("primary-alice", name);
        }
    }

    @Test
    void readsFallBackToPrimaryWhenNoReplicaIsReachable() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "jdbc:h2:tcp://127.0.0.1:1/nothing");
        settings.put("hibernate.rwsplit.pool.connectionTimeout", "250");
        try (EntityManagerFactory f = h2.factory(settings); EntityManager em = f.createEntityManager()) {
            assertEquals("primary-alice", em.find(Person.class, 1L).name);
            assertEquals(1, reason(em, RouteReason.NO_HEALTHY_REPLICA));
            em.clear();
            assertEquals("primary-alice", em.find(Person.class, 1L).name);
            assertEquals(2, reason(em, RouteReason.NO_HEALTHY_REPLICA));
        }
    }

    @Test
    void fallbackFailRaisesClearErrorWhenNoReplicaIsReachable() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "jdbc:h2:tcp://127.0.0.1:1/nothing");
        settings.put("hibernate.rwsplit.pool.connectionTimeout", "250");
        settings.put("hibernate.rwsplit.fallback", "fail");
        try (EntityManagerFactory f = h2.factory(settings); EntityManager em = f.createEntityManager()) {
            PersistenceException e = assertThrows(PersistenceException.class, () -> em.find(Person.class, 1L));
            String message = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            assertTrue(message.contains("hibernate.rwsplit.fallback"), message);
        }
    }

    @Test
    void roundRobinSpreadsReadsOverTwoReplicas() {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "a=" + h2.replicaUrl + "\n b=" + h2.replica2Url);
        settings.put("hibernate.rwsplit.load_balancer", "round_robin");
        try (EntityManagerFactory f = h2.factory(settings)) {
            for (int i = 0; i < 10; i++) {
                try (EntityManager em = f.createEntityManager()) {
                    em.find(Person.class, 1L);
                }
            }
            assertEquals(Map.of("a", 5L, "b", 5L), RwSplit.statistics(f).byReplica());
        }
    }

    @Test
    void byDefaultEachThreadKeepsToOneReplicaAndAnApplicationsThreadsUseBoth() throws Exception {
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.rwsplit.replicas", "a=" + h2.replicaUrl + "\n b=" + h2.replica2Url);
        try (EntityManagerFactory f = h2.factory(settings)) {
            java.util.Set<String> used = new java.util.TreeSet<>();
            for (int thread = 0; thread < 64 && used.size() < 2; thread++) {   // threads made one after another
                java.util.List<String> replicas = new java.util.concurrent.CopyOnWriteArrayList<>();
                Thread reader = new Thread(() -> {
                    for (int i = 0; i < 5; i++) {
                        try (EntityManager em = f.createEntityManager()) {
                            em.find(Person.class, 1L);
                            replicas.add(RwSplit.statistics(em).lastDecision().replica());
                        }
                    }
                });
                reader.start();
                reader.join();
                assertEquals(1, new java.util.HashSet<>(replicas).size(), "one thread's reads: " + replicas);
                used.addAll(replicas);
            }
            assertEquals(java.util.Set.of("a", "b"), used, "the threads' replicas");
        }
    }

    @Test
    void factoryStatisticsAddUpSessionStatistics() {
        long primary = 0;
        long replica = 0;
        for (int i = 0; i < 3; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                em.find(Person.class, 1L);
                em.getTransaction().begin();
                em.persist(new Person("p" + i));
                em.getTransaction().commit();
                primary += RwSplit.statistics(em).primaryStatements();
                replica += RwSplit.statistics(em).replicaStatements();
            }
        }
        assertEquals(primary, RwSplit.statistics(emf).primaryStatements());
        assertEquals(replica, RwSplit.statistics(emf).replicaStatements());
    }
}
