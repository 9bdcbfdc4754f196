package io.rwsplit.bench.overhead;

import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import io.rwsplit.bench.BenchItem;
import io.rwsplit.bench.Schema;

/**
 * The three operations every variant runs, written as an application would: a new
 * {@code EntityManager} per operation, reads outside a transaction, the write in a resource-local one.
 * Subclasses choose the database and the variants.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class Operations {

    /** Size of the id range the JPQL query reads. */
    static final int QUERY_ROWS = 10;

    /** The factory under test, set up by the subclass. */
    protected abstract EntityManagerFactory factory();

    /** Walks the seeded ids of one benchmark thread. */
    @State(Scope.Thread)
    public static class Ids {
        private long next;

        long nextId() {
            next = next % Schema.ROWS + 1;
            return next;
        }
    }

    /** {@code em.find} of a seeded row: one SELECT by primary key. */
    @Benchmark
    public BenchItem findById(Ids ids) {
        EntityManager em = factory().createEntityManager();
        try {
            return em.find(BenchItem.class, ids.nextId());
        }
        finally {
            em.close();
        }
    }

    /** A small JPQL query: ten rows by id range. */
    @Benchmark
    public List<BenchItem> jpqlQuery(Ids ids) {
        long from = ids.nextId() % (Schema.ROWS - QUERY_ROWS) + 1;
        EntityManager em = factory().createEntityManager();
        try {
            return em.createQuery("select i from BenchItem i where i.id between :from and :to order by i.id", BenchItem.class)
                    .setParameter("from", from)
                    .setParameter("to", from + QUERY_ROWS - 1)
                    .getResultList();
        }
        finally {
            em.close();
        }
    }

    /** persist + commit of a new row: one INSERT (IDENTITY) in a read-write transaction. */
    @Benchmark
    public Long writeTransaction() {
        EntityManager em = factory().createEntityManager();
        try {
            em.getTransaction().begin();
            BenchItem item = new BenchItem("written");
            em.persist(item);
            em.getTransaction().commit();
            return item.getId();
        }
        finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }
}
