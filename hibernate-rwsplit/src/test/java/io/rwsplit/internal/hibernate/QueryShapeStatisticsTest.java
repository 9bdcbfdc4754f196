package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;

/**
 * Query shapes, the read share and "where reads stay on the primary" of a factory running real Hibernate on two H2
 * databases, each read in a new {@code EntityManager} as a web application's requests make them.
 */
class QueryShapeStatisticsTest {

    private H2Pair h2;
    private EntityManagerFactory emf;

    @BeforeEach
    void setUp() {
        h2 = new H2Pair();
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.use_sql_comments", "true");
        settings.put("hibernate.rwsplit.audit_sample", "1");
        emf = h2.factory(settings);
    }

    @AfterEach
    void tearDown() {
        emf.close();
        h2.close();
    }

    @Test
    void threeDistinctQueriesAreThreeShapesWithTheirCountsAndReasons() {
        for (int i = 0; i < 5; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                em.find(Person.class, 1L + i % 2);                                     // one shape, whatever the id
            }
        }
        for (int i = 0; i < 3; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                em.createQuery("select p.name from Person p where p.id in :ids", String.class)
                        .setParameter("ids", List.of(1L, 2L).subList(0, 1 + i % 2)).getResultList();   // IN lists of 1 and 2
            }
        }
        for (int i = 0; i < 2; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                em.getTransaction().begin();
                em.createQuery("select p from Person p where p.name = :n", Person.class)
                        .setParameter("n", "x").getResultList();                     // in a read-write transaction
                em.getTransaction().commit();
            }
        }
        RoutingStatistics stats = RwSplit.statistics(emf);
        List<QueryShapeStatistics> reads = stats.queryShapes().stream().filter(QueryShapeStatistics::read).toList();
        assertEquals(3, reads.size(), () -> String.valueOf(reads));
        assertEquals(List.of(5L, 3L, 2L), reads.stream().map(QueryShapeStatistics::statements).toList());
        assertEquals(Map.of(RouteReason.REPLICA_READ, 5L), reads.get(0).byReason());
        assertEquals(5, reads.get(0).replicaExecutions());
        assertTrue(reads.get(1).sql().contains("in (?)"), reads.get(1).sql());
        assertEquals("select p.name from Person p where p.id in :ids", reads.get(1).source(), "the HQL it came from");
        assertEquals(Map.of(RouteReason.WRITE_TRANSACTION, 2L), reads.get(2).byReason());
        assertEquals(2, reads.get(2).primaryExecutions(), "statements of a transaction on the primary are timed too");

        assertEquals(10, stats.reads());
        assertEquals(8, stats.replicaReads());
        assertEquals(0.8, stats.readReplicaShare(), 1e-9);
        List<QueryShapeStatistics> onPrimary = stats.primaryReadShapes();
        assertEquals(1, onPrimary.size());
        assertEquals(reads.get(2).id(), onPrimary.get(0).id());

        assertEquals(0, stats.auditedReads(), "H2 has no replication position");
        assertEquals(8, stats.unauditedReads(), "every replica read was sampled, none could be checked");
        String report = RwSplit.report(emf);
        assertTrue(report.contains("stale-read audit: unavailable (8 sampled reads"), report);
        assertTrue(report.contains("reads 10, on replicas 8 (80.0 %)"), report);
        assertTrue(report.contains("WRITE_TRANSACTION 2"), report);
    }

    @Test
    void plainStatementsOfDoWorkCountForTheirShapeAndAreAudited() {
        for (int i = 0; i < 4; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                em.unwrap(org.hibernate.Session.class).doWork(c -> {
                    try (java.sql.Statement s = c.createStatement();
                         java.sql.ResultSet rs = s.executeQuery("select count(*) from person")) {
                        assertTrue(rs.next());
                    }
                });
            }
        }
        RoutingStatistics stats = RwSplit.statistics(emf);
        QueryShapeStatistics shape = stats.queryShapes().stream()
                .filter(q -> q.sql().startsWith("select count(*) from person")).findFirst().orElseThrow();
        assertEquals(4, shape.statements());
        assertEquals(Map.of(RouteReason.REPLICA_READ, 4L), shape.byReason());
        assertEquals(4, shape.replicaExecutions());
        assertEquals(4, stats.unauditedReads(), "every plain Statement read was sampled (H2 has no position to check)");
    }
    @Test
    void theStatementsOfAStatementBatchCountOneExecutionOfTheirShapeEach() {
        try (EntityManager em = emf.createEntityManager()) {
            em.getTransaction().begin();
            em.unwrap(org.hibernate.Session.class).doWork(c -> {
                try (java.sql.Statement s = c.createStatement()) {
                    s.addBatch("update person set name = 'batch-a' where id = 1");
                    s.addBatch("update person set name = 'batch-b' where id = 2");
                    s.addBatch("delete from person where id = 99");
                    assertEquals(3, s.executeBatch().length);
                }
            });
            em.getTransaction().commit();
        }
        List<QueryShapeStatistics> shapes = RwSplit.statistics(emf).queryShapes();
        QueryShapeStatistics update = shapes.stream().filter(q -> q.sql().startsWith("update person set name")).findFirst()
                .orElseThrow(() -> new AssertionError(shapes.toString()));
        QueryShapeStatistics delete = shapes.stream().filter(q -> q.sql().startsWith("delete from person")).findFirst()
                .orElseThrow(() -> new AssertionError(shapes.toString()));
        assertEquals(2, update.primaryExecutions(), "two statements of one shape: " + update);
        assertEquals(1, delete.primaryExecutions(), delete.toString());
        assertEquals(update.primaryMaxTime(), update.primaryMeanTime(), "equal parts of the batch's one time");
        assertEquals(update.primaryMeanTime(), delete.primaryMeanTime(), "equal parts of the batch's one time");
    }
}
