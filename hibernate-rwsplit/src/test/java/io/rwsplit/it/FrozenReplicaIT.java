package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * {@link FrozenReplicaContract} on MariaDB: {@code SLEEP(s)} returns 0, so {@code SLEEP(s) + @@server_id} names the
 * server. MariaDB Connector/J cannot abort a read in flight: its {@code abort} connects to the server to send
 * {@code KILL} (bounded by the pool's connect timeout), then drains the socket under the lock the blocked reader
 * holds, so it returns only when the read does. Such a read is bounded by the socket timeout instead: the module's
 * default is 5 minutes, and this test sets 6 s through the replica pools' driver properties, as a user does.
 */
@ReplicatedCluster
class FrozenReplicaIT extends FrozenReplicaContract {

    FrozenReplicaIT(MariaDbCluster cluster) {
        super(cluster);
    }

    @Override
    String slowRead(double seconds) {
        return "select sleep(" + seconds + ") + @@server_id";
    }

    @Override
    java.time.Duration socketTimeout() {
        return java.time.Duration.ofSeconds(6);
    }

    @Override
    String socketTimeoutSetting() {
        return "hibernate.rwsplit.pool.dataSource.socketTimeout";     // milliseconds, as MariaDB Connector/J reads it
    }

    @Override
    String label() {
        return "frozen-replica-it";
    }
}
