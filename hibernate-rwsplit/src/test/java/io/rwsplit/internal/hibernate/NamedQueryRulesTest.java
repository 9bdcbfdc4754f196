package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.InvalidSettingException;
import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.testing.LogCapture;

import ch.qos.logback.classic.Level;

/**
 * Rules by named query ({@code match=query:<name>}) on real Hibernate and two H2 databases ("primary-..." /
 * "replica-..." tells who answered), with the named queries of {@link Person}.
 */
class NamedQueryRulesTest {

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

    private String name(String namedQuery, long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return em.createNamedQuery(namedQuery, String.class).setParameter("id", id).getSingleResult();
        }
    }

    private List<Person> byName(String name) {
        try (EntityManager em = emf.createEntityManager()) {
            return em.createNamedQuery("Person.byName", Person.class).setParameter("name", name).getResultList();
        }
    }

    private QueryShapeStatistics shape(String sqlPart) {
        return RwSplit.statistics(emf).queryShapes().stream().filter(q -> q.sql().contains(sqlPart)).findFirst()
                .orElseThrow(() -> new AssertionError(sqlPart + " in " + RwSplit.statistics(emf).queryShapes()));
    }

    /** The refusal behind a factory that would not start, wherever Hibernate wrapped it. */
    private InvalidSettingException startupFailure(String... keysAndValues) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> factory(keysAndValues));
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidSettingException refused) {
                return refused;
            }
        }
        throw new AssertionError("no InvalidSettingException behind " + e, e);
    }

    @Test
    void aRuleByNamedQuerySendsThatQueryToThePrimaryAndLeavesTheOthers() {
        factory("hibernate.rwsplit.rule.names.match", "query:Person.nameById",
                "hibernate.rwsplit.rule.names.route", "primary");
        assertEquals("primary-alice", name("Person.nameById", 1));
        assertEquals(1, byName("replica-bob").size(), "another named query still reads the replica");
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
        }
        assertEquals(Map.of(RouteReason.SHAPE_RULE_PRIMARY, 1L), shape("select p1_0.name from").byReason());
        assertEquals(Map.of(RouteReason.REPLICA_READ, 1L), shape("where p1_0.name=?").byReason());
    }

    @Test
    void aNamedQueryWithItsOwnCommentIsToldApartFromTheSameHql() {
        factory("hibernate.rwsplit.rule.report.match", "query:Person.nameByIdCommented",
                "hibernate.rwsplit.rule.report.route", "primary");
        assertEquals("primary-bob", name("Person.nameByIdCommented", 2));
        assertEquals("replica-bob", name("Person.nameById", 2), "the same HQL without that comment is not moved");
        assertEquals(Map.of(RouteReason.SHAPE_RULE_PRIMARY, 1L, RouteReason.REPLICA_READ, 1L),
                shape("select p1_0.name from").byReason());
    }

    @Test
    void anotherNamedQueryWithTheSameHqlAndNoCommentIsMatchedTooAndStartupSaysSo() {
        try (LogCapture logs = LogCapture.attach(NamedQueryRules.class.getName(), Level.WARN)) {
            factory("hibernate.rwsplit.rule.names.match", "query:Person.nameById",
                    "hibernate.rwsplit.rule.names.route", "primary");
            assertEquals(1, logs.lines().stream().filter(l -> l.contains("[Person.nameByIdAgain]")).count(),
                    logs.lines().toString());
        }
        assertEquals("primary-alice", name("Person.nameByIdAgain", 1));
        assertEquals("replica-alice", name("Person.nameByIdCommented", 1));
    }

    @Test
    void aRuleByNamedQueryCanGiveItsReadsALevel() {
        factory("hibernate.rwsplit.rule.names.match", "query:Person.nameById",
                "hibernate.rwsplit.rule.names.route", "consistency:strong");
        assertEquals("primary-alice", name("Person.nameById", 1));
        assertEquals(Map.of(RouteReason.STRONG_CONSISTENCY, 1L), shape("select p1_0.name from").byReason());
    }

    @Test
    void aNamedQueryThatWritesOrReadsInAReadWriteTransactionIsNeverMovedToAReplica() {
        factory("hibernate.rwsplit.consistency", "strong",
                "hibernate.rwsplit.rule.a-rename.match", "query:Person.rename",
                "hibernate.rwsplit.rule.a-rename.route", "consistency:eventual",
                "hibernate.rwsplit.rule.b-names.match", "query:Person.nameById",
                "hibernate.rwsplit.rule.b-names.route", "consistency:eventual");
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            assertEquals(1, em.createNamedQuery("Person.rename").setParameter("name", "renamed").setParameter("id", 1L)
                    .executeUpdate());
            assertEquals("renamed", em.createNamedQuery("Person.nameById", String.class).setParameter("id", 1L)
                    .getSingleResult());
            em.getTransaction().commit();
        }
        assertEquals("renamed", h2.query(h2.primaryUrl, "select name from person where id = 1"));
        assertEquals("replica-alice", h2.query(h2.replicaUrl, "select name from person where id = 1"));
        assertEquals(Map.of(RouteReason.WRITE, 1L), shape("update person").byReason());
        assertEquals(Map.of(RouteReason.WRITE_TRANSACTION, 1L), shape("select p1_0.name from").byReason());
        assertEquals("replica-bob", name("Person.nameById", 2), "outside the transaction the rule applies again");
    }

    @Test
    void aRuleNamingAnUnknownQueryFailsStartupNamingTheSettingAndTheValue() {
        InvalidSettingException e = startupFailure("hibernate.rwsplit.rule.names.match", "query:Person.byNickname",
                "hibernate.rwsplit.rule.names.route", "primary");
        assertEquals("hibernate.rwsplit.rule.names.match", e.key());
        assertEquals("query:Person.byNickname", e.value());
        assertTrue(e.getMessage().contains("'hibernate.rwsplit.rule.names.match'"), e.getMessage());
        assertTrue(e.getMessage().contains("'query:Person.byNickname'"), e.getMessage());
        assertTrue(e.getMessage().contains("Person.byName"), "it lists the named queries there are: " + e.getMessage());
    }

    @Test
    void aRuleByNamedQueryWithoutSqlCommentsFailsStartupSayingWhatToEnable() {
        InvalidSettingException e = startupFailure("hibernate.use_sql_comments", "false",
                "hibernate.rwsplit.rule.names.match", "query:Person.nameById",
                "hibernate.rwsplit.rule.names.route", "primary");
        assertEquals("hibernate.rwsplit.rule.names.match", e.key());
        assertTrue(e.getMessage().contains("hibernate.use_sql_comments=true"), e.getMessage());
    }

    @Test
    void aRuleNamingANativeQueryWithoutACommentFailsStartup() {
        InvalidSettingException e = startupFailure("hibernate.rwsplit.rule.n.match", "query:Person.nativeName",
                "hibernate.rwsplit.rule.n.route", "primary");
        assertEquals("query:Person.nativeName", e.value());
        assertTrue(e.getMessage().contains("org.hibernate.comment"), e.getMessage());
    }

    @Test
    void aNativeNamedQueryWithACommentCanBeMoved() {
        factory("hibernate.rwsplit.rule.n.match", "query:Person.nativeNameCommented",
                "hibernate.rwsplit.rule.n.route", "primary");
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("primary-alice", em.createNamedQuery("Person.nativeNameCommented").setParameter(1, 1L)
                    .getSingleResult());
            assertEquals("replica-alice", em.createNamedQuery("Person.nativeName").setParameter(1, 1L)
                    .getSingleResult());
        }
    }

    @Test
    void aFactoryWithoutRulesByNamedQueryStartsAsBefore() {
        factory();
        assertNotNull(RwSplit.statistics(emf));
        assertEquals("replica-alice", name("Person.nameById", 1));
    }
}
