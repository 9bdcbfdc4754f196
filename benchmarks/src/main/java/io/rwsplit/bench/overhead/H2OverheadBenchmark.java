package io.rwsplit.bench.overhead;

import java.util.Map;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.rwsplit.bench.Database;
import io.rwsplit.bench.RoutingProof;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * Routing overhead on in-memory H2 databases, so that no network time hides it. The "replica" is a second
 * in-memory database seeded alike except for the rows' names (nothing replicates to it), so that
 * {@link RoutingProof} can show which database serves the reads; the variants differ only in the connection
 * path and in how the application runs its reads (see {@link Variant}).
 */
@State(Scope.Benchmark)
public class H2OverheadBenchmark extends Operations {

    @Param({"PLAIN", "PLAIN_TX", "RWSPLIT", "RWSPLIT_TX", "SPRING_LAZY", "SHARDINGSPHERE"})
    public Variant variant;

    private Stack stack;

    @Setup(Level.Trial)
    public void open() {
        Database db = Database.h2("bench_" + variant.name().toLowerCase());
        Schema.recreate(db);
        stack = Stack.open(variant, db, Map.of());
        RoutingProof.verify("h2", stack, db);
    }

    @TearDown(Level.Trial)
    public void close() {
        stack.close();
    }

    @Override
    protected Stack stack() {
        return stack;
    }
}
