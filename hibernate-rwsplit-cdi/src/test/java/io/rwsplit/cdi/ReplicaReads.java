package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;
import io.rwsplit.ReadConsistency;

/** {@code @ReadReplica} and {@code @ReadConsistency} on the class. */
@ReadReplica
@ReadConsistency("bounded_staleness:PT1S")
@ApplicationScoped
public class ReplicaReads {

    @Inject
    EntityManagerFactory emf;

    @Inject
    RwSplitRequest request;

    @Inject
    Reads reads;

    @Transactional
    public String nameInTransaction(long id) {
        return Reads.name(emf, id);
    }

    /** Inner @UsePrimary call, then a read of our own. */
    public String[] primaryInsideThenOwn(long id) {
        return new String[] {reads.nameOnPrimary(id), Reads.name(emf, id)};
    }

    /** Inner @UsePrimary call that throws, then a read of our own. */
    public String failingPrimaryInsideThenOwn(long id) {
        try {
            reads.failOnPrimary(id);
        }
        catch (IllegalStateException expected) {
            // the inner intent must be gone now
        }
        return Reads.name(emf, id);
    }

    @Transactional
    public String[] transactionWithInnerPrimary(long id) {
        return new String[] {Reads.name(emf, id), reads.nameOnPrimary(id)};
    }

    public io.rwsplit.Consistency consistency() {
        return request.consistency();
    }

    @ReadConsistency("strong")
    public io.rwsplit.Consistency[] innerConsistencyThenOuter() {
        return new io.rwsplit.Consistency[] {request.consistency(), reads.consistencyInside(), request.consistency()};
    }

    /** Class-level bounded staleness: the replica has no measured lag here, so no replica is within the bound. */
    public String name(long id) {
        return Reads.name(emf, id);
    }
}
