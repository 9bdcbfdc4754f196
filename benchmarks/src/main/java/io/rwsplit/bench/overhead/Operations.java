package io.rwsplit.bench.overhead;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import io.rwsplit.bench.BenchItem;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;

/**
 * The three operations every variant runs, written as an application would: each operation its own unit of
 * work ({@link Stack#read}, {@link Stack#write}): a new {@code EntityManager} with reads outside a transaction
 * and the write in a resource-local one, or, for the variants that route by {@code Connection#setReadOnly},
 * a Spring transaction (read-only for the reads). Subclasses choose the database and the variants.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class Operations {

    /** Size of the id range the JPQL query reads. */
    static final int QUERY_ROWS = 10;

    /** The stack under test, set up (and its routing proven) by the subclass. */
    protected abstract Stack stack();

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
        long id = ids.nextId();
        return stack().read(em -> em.find(BenchItem.class, id));
    }

    /** A small JPQL query: ten rows by id range. */
    @Benchmark
    public List<BenchItem> jpqlQuery(Ids ids) {
        long from = ids.nextId() % (Schema.ROWS - QUERY_ROWS) + 1;
        return stack().read(em -> em.createQuery("select i from BenchItem i where i.id between :from and :to order by i.id", BenchItem.class)
                .setParameter("from", from)
                .setParameter("to", from + QUERY_ROWS - 1)
                .getResultList());
    }

    /** persist + commit of a new row: one INSERT (IDENTITY) in a read-write transaction. */
    @Benchmark
    public Long writeTransaction() {
        return stack().write(em -> {
            BenchItem item = new BenchItem("written");
            em.persist(item);
            return item.getId();
        });
    }
}
