package io.rwsplit.it;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link BusyPoolsContract} on MariaDB: {@code SLEEP(n)} returns 0, so {@code SLEEP(n) + @@server_id} names the server. */
@ReplicatedCluster
class BusyPoolsIT extends BusyPoolsContract {

    BusyPoolsIT(MariaDbCluster cluster) {
        super(cluster);
    }

    @Override
    String slowRead(int seconds) {
        return "select sleep(" + seconds + ") + @@server_id";
    }

    @Override
    String sleep(int seconds) {
        return "select sleep(" + seconds + ")";
    }

    @Override
    String label() {
        return "busy-pools-it";
    }
}
