package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadReplica;

/** {@code @ReadReplica} and {@code @Consistency} on the class. */
@ReadReplica
@Consistency("BOUNDED_STALENESS")
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

    public String consistency() {
        return request.consistency();
    }

    @Consistency("STRONG")
    public String[] innerConsistencyThenOuter() {
        return new String[] {request.consistency(), reads.consistencyInside(), request.consistency()};
    }
}
