package io.rwsplit.quarkus.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** {@code @UsePrimary} on the class, calling {@code @ReadReplica} methods of another bean. */
@UsePrimary
@ApplicationScoped
public class PrimaryCalls {

    @Inject
    AnnotatedReads reads;

    /** Own read, the inner {@code @ReadReplica} call's read, own read again. */
    public String[] aroundReplicaCall(long id) {
        return new String[] {reads.name(id), reads.onReplica(id), reads.name(id)};
    }

    /** The same inside a JTA transaction this method begins. */
    @Transactional
    public String[] aroundReplicaCallInTransaction(long id) {
        return new String[] {reads.name(id), reads.onReplica(id), reads.name(id)};
    }

    /** Own read after an inner {@code @UsePrimary} call that threw. */
    @ReadReplica
    public String afterFailedPrimaryCall(long id) {
        try {
            reads.failOnPrimary(id);
        }
        catch (IllegalStateException expected) {
            // the inner intent must be gone now
        }
        return reads.name(id);
    }
}
