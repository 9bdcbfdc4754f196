package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;

/**
 * Annotations on the methods of a Jakarta Data repository interface, whose implementation
 * ({@code People_}) Hibernate's annotation processor generated and which uses a {@code StatelessSession}.
 */
@EnableWeld
class RepositoryRoutingTest {

    @WeldSetup
    WeldInitiator weld = TestContainer.with(People_.class, Library.class);

    @Inject
    People people;

    @Inject
    Library library;

    @Inject
    EntityManagerFactory emf;

    @Test
    void usePrimaryOnRepositoryMethodReadsFromPrimary() {
        assertEquals("replica-alice", people.name(1));
        assertEquals("primary-alice", people.nameFromPrimary(1));
        assertEquals(1, RwSplit.statistics(emf).byReason().getOrDefault(RouteReason.PRIMARY_HINT.name(), 0L));
    }

    @Test
    void readReplicaOnRepositoryMethodIsAReplicaHint() {
        assertEquals("replica-alice", people.nameFromReplica(1));
        assertEquals(1, RwSplit.statistics(emf).byReason().getOrDefault(RouteReason.REPLICA_HINT.name(), 0L));
    }

    @Test
    void readReplicaOnRepositoryMethodNeverTurnsATransactionBegunOutsideItReadOnly() {
        // its first statement runs inside @ReadReplica, but the transaction began outside: read-write, primary
        assertArrayEquals(new String[] {"primary-alice", "primary-alice"}, library.replicaMethodFirstInTransaction(1));
    }

    @Test
    void repositoryJoinsTheReadOnlyTransactionOfItsCallerAndUsePrimaryStillWins() {
        assertArrayEquals(new String[] {"replica-alice", "primary-alice"}, library.namesInReadOnlyTransaction(1));
    }
}
