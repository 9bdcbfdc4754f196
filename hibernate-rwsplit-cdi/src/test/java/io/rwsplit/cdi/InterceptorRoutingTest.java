package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import jakarta.inject.Inject;

import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.rwsplit.Intent;
import io.rwsplit.UsePrimary;

/**
 * {@code @ReadReplica}, {@code @UsePrimary} and {@code @ReadConsistency} on bean methods and classes, nested,
 * with exceptions. "primary-alice" / "replica-alice" tells which database answered.
 */
@EnableWeld
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // one container for all: these tests only read
class InterceptorRoutingTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(Reads.class, PrimaryReads.class, ReplicaReads.class);

    @Inject
    Reads reads;

    @Inject
    PrimaryReads primaryReads;

    @Inject
    ReplicaReads replicaReads;

    @Inject
    RwSplitPersistence persistence;

    @Test
    void unannotatedReadOutsideTransactionGoesToReplica() {
        assertEquals("replica-alice", reads.name(1));
    }

    @Test
    void usePrimaryOnMethodSendsReadsToPrimary() {
        assertEquals("primary-alice", reads.nameOnPrimary(1));
    }

    @Test
    void usePrimaryOnClassSendsReadsToPrimary() {
        assertEquals("primary-alice", primaryReads.name(1));
    }

    @Test
    void readReplicaOnMethodOverridesUsePrimaryOnClass() {
        assertEquals("replica-alice", primaryReads.nameAllowingReplica(1));
    }

    @Test
    void readReplicaOnMethodMakesItsTransactionReadFromReplica() {
        assertEquals("primary-alice", reads.nameInTransaction(1));
        assertEquals("replica-alice", reads.nameInReadOnlyTransaction(1));
    }

    @Test
    void readReplicaOnClassMakesItsTransactionsReadFromReplica() {
        assertEquals("replica-alice", replicaReads.nameInTransaction(1));
    }

    @Test
    void innerUsePrimaryOverridesOuterReadReplicaAndIsRestoredOnExit() {
        assertArrayEquals(new String[] {"primary-alice", "replica-alice"}, replicaReads.primaryInsideThenOwn(1));
    }

    @Test
    void innerIntentIsRestoredWhenTheInnerCallThrows() {
        assertEquals("replica-alice", replicaReads.failingPrimaryInsideThenOwn(1));
        assertThrows(IllegalStateException.class, () -> reads.failOnPrimary(1));
        assertEquals("replica-alice", reads.name(1));
    }

    @Test
    void innerUsePrimaryInsideReadOnlyTransactionReadsPrimary() {
        assertArrayEquals(new String[] {"replica-alice", "primary-alice"}, replicaReads.transactionWithInnerPrimary(1));
    }

    @Test
    void consistencyOnClassAndMethodNestsAndIsRestored() {
        assertEquals(io.rwsplit.Consistency.boundedStaleness(Duration.ofSeconds(1)), replicaReads.consistency());
        assertArrayEquals(new io.rwsplit.Consistency[] {io.rwsplit.Consistency.strong(),
                io.rwsplit.Consistency.readYourWrites(), io.rwsplit.Consistency.strong()}, replicaReads.innerConsistencyThenOuter());
        assertEquals(io.rwsplit.Consistency.readYourWrites(), reads.consistencyInside());
    }

    @Test
    void strongConsistencyOnMethodReadsFromPrimary() {
        assertEquals("primary-alice", reads.nameStrong(1));
        assertEquals("primary-alice", reads.nameOnReplicaButStrong(1));
        assertEquals("replica-alice", reads.name(1));
    }

    @Test
    void coreSeesNothingOutsideInterceptedCalls() {
        assertEquals(Intent.NONE, persistence.intentSource().currentIntent());
        assertNull(persistence.intentSource().currentConsistency());
    }
}
