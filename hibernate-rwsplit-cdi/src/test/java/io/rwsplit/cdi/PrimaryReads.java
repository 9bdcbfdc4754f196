package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** {@code @UsePrimary} on the class, overridden by {@code @ReadReplica} on one method. */
@UsePrimary
@ApplicationScoped
public class PrimaryReads {

    @Inject
    EntityManagerFactory emf;

    public String name(long id) {
        return Reads.name(emf, id);
    }

    @ReadReplica
    public String nameAllowingReplica(long id) {
        return Reads.name(emf, id);
    }
}
