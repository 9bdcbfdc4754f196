package io.rwsplit.internal.balance;

import java.util.List;

import io.rwsplit.spi.LoadBalancer;
import io.rwsplit.spi.ReplicaView;

/**
 * Each thread keeps to one candidate: the thread whose id is {@code i} reads on candidate {@code i mod n}. The threads
 * of a pool (a web server's workers, an executor's) are made one after another, so their ids are consecutive and they
 * spread evenly over the replicas, while each keeps to its own. A thread that keeps to one replica keeps to the same
 * pooled connection (HikariCP lends a thread the connection it gave back last) and so to the same server process, whose
 * caches stay warm: on servers that share their cores, reads spread this way cost less CPU per read than reads that
 * go to each replica in turn (see the benchmark page's raw-JDBC table). When the candidates change (a replica down, a
 * read that needs one caught up), the thread maps onto the new list. No state: nothing shared between threads.
 */
final class ThreadAffinityBalancer implements LoadBalancer {

    @Override
    @SuppressWarnings("deprecation")   // Thread#threadId() is Java 19's name for it
    public ReplicaView choose(List<? extends ReplicaView> candidates) {
        return candidates.get((int) Math.floorMod(Thread.currentThread().getId(), (long) candidates.size()));
    }

    /** It never reads the statements in progress: they are not counted. */
    @Override
    public boolean readsInFlight() {
        return false;
    }
}
