package io.rwsplit.bench.overhead;

import java.util.Map;

import jakarta.persistence.EntityManagerFactory;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.rwsplit.bench.Database;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * Routing overhead on an in-memory H2 database, so that no network time hides it. Every routing variant's
 * "replica" is the primary's own database: the variants differ only in the connection path.
 */
@State(Scope.Benchmark)
public class H2OverheadBenchmark extends Operations {

    @Param({"PLAIN", "RWSPLIT", "SPRING_LAZY", "SHARDINGSPHERE"})
    public Variant variant;

    private Stack stack;

    @Setup(Level.Trial)
    public void open() {
        Database db = Database.h2("bench_" + variant.name().toLowerCase());
        Schema.recreate(db.primaryUrl(), db.user(), db.password(), false);
        stack = Stack.open(variant, db, Map.of());
    }

    @TearDown(Level.Trial)
    public void close() {
        stack.close();
    }

    @Override
    protected EntityManagerFactory factory() {
        return stack.factory();
    }
}
