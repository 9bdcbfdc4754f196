package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;

/**
 * JTA boundaries (Narayana, {@code @Transactional}) with the primary pool enlisted by Agroal: a read-write
 * transaction stays on the primary from its first statement and commits or rolls back there; a
 * {@code @ReadReplica} transaction and reads outside any transaction go to the replica.
 */
@EnableWeld
class JtaRoutingTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(Reads.class);

    @Inject
    Reads reads;

    @Inject
    TestUnit unit;

    @Inject
    EntityManagerFactory emf;

    private long reason(RouteReason reason) {
        return RwSplit.statistics(emf).byReason().getOrDefault(reason.name(), 0L);
    }

    private String primary(String sql) {
        return unit.databases().query(unit.databases().primaryUrl, sql);
    }

    private String replica(String sql) {
        return unit.databases().query(unit.databases().replicaUrl, sql);
    }

    @Test
    void readWriteTransactionReadsFromPrimaryEvenBeforeItWrites() {
        assertEquals("primary-alice", reads.nameInTransaction(1));
        assertEquals(1, reason(RouteReason.WRITE_TRANSACTION));
        assertEquals(0, RwSplit.statistics(emf).replicaStatements());
    }

    @Test
    void readsOutsideAnyTransactionGoToReplica() {
        assertEquals("primary-alice", reads.nameInTransaction(1));
        assertEquals("replica-alice", reads.name(1));
        assertEquals(1, reason(RouteReason.REPLICA_READ));
    }

    @Test
    void readReplicaTransactionReadsFromReplica() {
        assertEquals("replica-alice", reads.nameInReadOnlyTransaction(1));
        assertEquals(1, reason(RouteReason.READ_ONLY_TRANSACTION));
    }

    @Test
    void writeInReadWriteTransactionIsCommittedOnPrimaryOnly() {
        reads.rename(2, "carol");
        assertEquals("carol", primary("select name from person where id = 2"));
        assertEquals("replica-bob", replica("select name from person where id = 2"));
    }

    @Test
    void rolledBackTransactionLeavesThePrimaryUnchanged() {
        assertThrows(IllegalStateException.class, () -> reads.renameAndFail(2, "dave"));
        assertEquals("primary-bob", primary("select name from person where id = 2"));
    }

    @Test
    void writeInReadReplicaTransactionMovesToPrimaryAndCommits() {
        assertEquals("replica-alice", reads.readThenRename(1, "erin"));
        assertEquals("erin", primary("select name from person where id = 1"));
        assertEquals("replica-alice", replica("select name from person where id = 1"));
        RoutingStatistics stats = RwSplit.statistics(emf);
        assertTrue(stats.primaryStatements() >= 1, stats.toString());
        assertEquals(1, reason(RouteReason.WRITE));
    }
}
