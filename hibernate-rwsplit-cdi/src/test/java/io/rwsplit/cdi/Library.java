package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** Calls the repository inside a read-write JTA transaction that it begins. */
@ApplicationScoped
public class Library {

    @Inject
    People people;

    @Transactional
    public String[] replicaMethodFirstInTransaction(long id) {
        return new String[] {people.nameFromReplica(id), people.name(id)};
    }

    @io.rwsplit.ReadReplica
    @Transactional
    public String[] namesInReadOnlyTransaction(long id) {
        return new String[] {people.name(id), people.nameFromPrimary(id)};
    }
}
