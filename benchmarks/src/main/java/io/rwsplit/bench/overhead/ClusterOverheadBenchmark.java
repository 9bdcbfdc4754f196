package io.rwsplit.bench.overhead;

import java.util.Map;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.rwsplit.bench.Database;
import io.rwsplit.bench.Replication;
import io.rwsplit.bench.RoutingProof;
import io.rwsplit.bench.Schema;
import io.rwsplit.bench.Stack;
import io.rwsplit.bench.Variant;

/**
 * The same operations against the scripts/cluster.sh MariaDB cluster over loopback: the routing cost next
 * to a real round trip. {@code port} is the primary's port (replicas on the next two).
 */
@State(Scope.Benchmark)
public class ClusterOverheadBenchmark extends Operations {

    @Param({"PLAIN", "PLAIN_TX", "RWSPLIT", "RWSPLIT_TX", "SPRING_LAZY", "MYSQL_REPLICATION", "AWS_SRW"})
    public Variant variant;

    @Param("3307")
    public int port;

    private Stack stack;

    @Setup(Level.Trial)
    public void open() {
        Database db = Database.cluster(port, 2);
        Schema.recreate(db);
        Replication.awaitReplicas(db);
        stack = Stack.open(variant, db, Map.of());
        RoutingProof.verify("cluster", stack, db);
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
