package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;

/**
 * Rules by query shape on real Hibernate and two H2 databases ("primary-..." / "replica-..." tells who answered): a
 * rule moves the reads of one shape and leaves the others; it never moves a write or a read-write transaction's read.
 */
class ShapeRulesTest {

    private final H2Pair h2 = new H2Pair();
    private EntityManagerFactory emf;

    @AfterEach
    void tearDown() {
        if (emf != null) {
            emf.close();
        }
        h2.close();
    }

    private EntityManagerFactory factory(String... keysAndValues) {
        emf = h2.withRules(keysAndValues);
        return emf;
    }

    private String nameById(long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return em.find(Person.class, id).name;
        }
    }

    private String nameByQuery(long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return em.createQuery("select p.name from Person p where p.id = :id", String.class).setParameter("id", id)
                    .getSingleResult();
        }
    }

    private QueryShapeStatistics shape(String sqlPart) {
        return RwSplit.statistics(emf).queryShapes().stream().filter(q -> q.sql().contains(sqlPart)).findFirst()
                .orElseThrow(() -> new AssertionError(sqlPart + " in " + RwSplit.statistics(emf).queryShapes()));
    }

    @Test
    void aRuleBySourceSendsOneShapeToThePrimaryAndLeavesTheOthers() {
        factory("hibernate.rwsplit.rule.names.match", "source:select p.name from Person p where p.id = :id",
                "hibernate.rwsplit.rule.names.route", "primary");
        assertEquals("primary-alice", nameByQuery(1));
        assertEquals("replica-alice", nameById(1));
        assertEquals(Map.of(RouteReason.SHAPE_RULE_PRIMARY, 1L), shape("select p1_0.name from").byReason());
        assertEquals(Map.of(RouteReason.REPLICA_READ, 1L), shape("select p1_0.id,p1_0.name from").byReason());
    }

    @Test
    void aRuleByIdTakenFromTheStatisticsMovesThatShape() {
        factory();
        nameById(1);
        String id = shape("select p1_0.id,p1_0.name from").id();
        emf.close();
        factory("hibernate.rwsplit.rule.by-id.match", "id:" + id, "hibernate.rwsplit.rule.by-id.route",
                "consistency:strong");
        assertEquals("primary-alice", nameById(1));
        assertEquals("replica-bob", nameByQuery(2));
        assertEquals(Map.of(RouteReason.STRONG_CONSISTENCY, 1L), shape("select p1_0.id,p1_0.name from").byReason());
    }

    @Test
    void aRuleNeverMovesAWriteOrAReadWriteTransactionsRead() {
        factory("hibernate.rwsplit.rule.everything.match", "prefix:u", "hibernate.rwsplit.rule.everything.route",
                "consistency:eventual", "hibernate.rwsplit.rule.reads.match", "prefix:select",
                "hibernate.rwsplit.rule.reads.route", "consistency:eventual");
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            Person p = em.find(Person.class, 1L);
            p.name = "renamed";
            em.getTransaction().commit();
        }
        assertEquals("renamed", h2.query(h2.primaryUrl, "select name from person where id = 1"));
        assertEquals(Map.of(RouteReason.WRITE, 1L), shape("update person").byReason());
        assertEquals(Map.of(RouteReason.WRITE_TRANSACTION, 1L), shape("select p1_0.id,p1_0.name from").byReason());
        assertEquals(List.of(), RwSplit.statistics(emf).queryShapes().stream()
                .filter(q -> q.byReason().containsKey(RouteReason.SHAPE_RULE_PRIMARY)).toList());
    }
    /** Two replicas: r1 of tier 1 ("replica-..."), r2 of tier 2 ("replica2-..."). */
    private EntityManagerFactory tiered(String... keysAndValues) {
        String[] all = new String[keysAndValues.length + 4];
        all[0] = "hibernate.rwsplit.replicas";
        all[1] = "r1=" + h2.replicaUrl + ",r2=" + h2.replica2Url;
        all[2] = "hibernate.rwsplit.replica.r2.tier";
        all[3] = "2";
        System.arraycopy(keysAndValues, 0, all, 4, keysAndValues.length);
        return factory(all);
    }

    @Test
    void aRuleByTierSendsOneShapesReadsToThatTiersReplicasAndLeavesTheOthersOnTheBestTier() {
        tiered("hibernate.rwsplit.rule.reports.match", "source:select p.name from Person p where p.id = :id",
                "hibernate.rwsplit.rule.reports.route", "tier:2");
        for (int i = 0; i < 3; i++) {
            assertEquals("replica2-alice", nameByQuery(1), "the rule's shape, on tier 2");
            assertEquals("replica-alice", nameById(1), "other shapes on tier 1, the best");
        }
        assertEquals(Map.of(RouteReason.REPLICA_READ, 3L), shape("select p1_0.name from").byReason());
    }

    @Test
    void aRuleByTierKeepsTheSessionsConsistency() {
        tiered("hibernate.rwsplit.consistency", "strong",
                "hibernate.rwsplit.rule.reports.match", "source:select p.name from Person p where p.id = :id",
                "hibernate.rwsplit.rule.reports.route", "tier:2");
        assertEquals("primary-alice", nameByQuery(1), "a strong read stays on the primary, whatever the tier");
    }

    @Test
    void aRuleByTierNeverMovesAWrite() {
        tiered("hibernate.rwsplit.rule.everything.match", "prefix:u", "hibernate.rwsplit.rule.everything.route",
                "tier:2");
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            em.find(Person.class, 1L).name = "renamed";
            em.getTransaction().commit();
        }
        assertEquals("renamed", h2.query(h2.primaryUrl, "select name from person where id = 1"));
        assertEquals(Map.of(RouteReason.WRITE, 1L), shape("update person").byReason());
    }

    @Test
    void aRuleNamingATierNoReplicaHasFailsAtStartupNamingTheSettingAndTheTiers() {
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> tiered("hibernate.rwsplit.rule.reports.match", "prefix:select",
                        "hibernate.rwsplit.rule.reports.route", "tier:3"));
        Throwable root = e;
        while (root.getCause() != null && !(root instanceof io.rwsplit.InvalidSettingException)) {
            root = root.getCause();
        }
        String message = root.getMessage();
        org.junit.jupiter.api.Assertions.assertTrue(message.contains("hibernate.rwsplit.rule.reports.route")
                && message.contains("tier:3") && message.contains("r1 tier 1, r2 tier 2"), message);
    }
}
