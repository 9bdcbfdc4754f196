package io.rwsplit.testing;

import static io.rwsplit.testing.TestCluster.PRIMARY;
import static io.rwsplit.testing.TestCluster.replica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Proves a cluster behaves as the routing tests assume, on every database (one subclass each). */
abstract class ClusterContract {

    final TestCluster cluster;

    ClusterContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** Fails unless {@code refused} is the database's refusal of a write on a read-only replica. */
    abstract void assertReadOnlyRefusal(SQLException refused);

    @Test
    void everyNodeReportsItsOwnServerIdentity() throws SQLException {
        Set<Integer> identities = new HashSet<>();
        for (String node : cluster.nodes()) {
            identities.add(cluster.serverIdentity(node));
        }
        assertEquals(cluster.replicaCount() + 1, identities.size(), "server identities " + identities);
        assertEquals(cluster.serverIdentity(PRIMARY), cluster.queryInt(PRIMARY, "select " + cluster.kind().serverIdentity()));
    }

    @Test
    void replicaRejectsWritesFromApplicationUser() throws SQLException {
        cluster.update(PRIMARY, "create table item (id int primary key)");
        cluster.sync();
        for (String node : cluster.replicas()) {
            SQLException refused = assertThrows(SQLException.class, () -> cluster.update(node, "insert into item values (1)"));
            assertReadOnlyRefusal(refused);
            assertEquals(0, cluster.queryInt(node, "select count(*) from item"));
        }
    }

    @Test
    void writeOnPrimaryReplicatesToEveryReplica() throws SQLException {
        cluster.update(PRIMARY, "create table item (id int primary key, name varchar(20))");
        cluster.update(PRIMARY, "insert into item values (1, 'écrit')");
        cluster.sync();
        for (String node : cluster.replicas()) {
            assertEquals("écrit", cluster.queryString(node, "select name from item where id = 1"));
        }
    }

    @Test
    void delayedReplicaShowsOldRowRightAfterCommit() throws SQLException {
        cluster.update(PRIMARY, "create table item (id int primary key, version int)");
        cluster.update(PRIMARY, "insert into item values (1, 1)");
        cluster.sync();
        cluster.delay(1, 2);

        cluster.update(PRIMARY, "update item set version = 2 where id = 1");

        assertEquals(1, cluster.queryInt(replica(1), "select version from item where id = 1"));
        cluster.sync(2);
        assertEquals(2, cluster.queryInt(replica(2), "select version from item where id = 1"));
        cluster.sync();
        assertEquals(2, cluster.queryInt(replica(1), "select version from item where id = 1"));
    }

    @Test
    void pausedReplicaFallsBehindAndCatchesUpWhenResumed() throws SQLException {
        cluster.update(PRIMARY, "create table item (id int primary key)");
        cluster.sync();
        cluster.pause(1);

        cluster.update(PRIMARY, "insert into item values (1)");
        cluster.sync(2);

        assertEquals(1, cluster.queryInt(replica(2), "select count(*) from item"));
        assertEquals(0, cluster.queryInt(replica(1), "select count(*) from item"));

        cluster.resume(1);
        cluster.sync();
        assertEquals(1, cluster.queryInt(replica(1), "select count(*) from item"));
    }

    @Test
    void killedReplicaCanBeRevived() throws SQLException {
        cluster.update(PRIMARY, "create table item (id int primary key)");
        cluster.sync();
        cluster.kill(replica(1));
        assertThrows(SQLException.class, () -> cluster.queryInt(replica(1), "select 1"));

        cluster.update(PRIMARY, "insert into item values (1)");
        cluster.revive(replica(1));
        cluster.sync();

        assertEquals(1, cluster.queryInt(replica(1), "select count(*) from item"));
    }
}
