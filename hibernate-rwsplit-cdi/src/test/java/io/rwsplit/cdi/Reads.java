package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;
import io.rwsplit.ReadConsistency;

/** A bean whose methods carry the annotations; the class carries none. Each call uses its own EntityManager. */
@ApplicationScoped
public class Reads {

    @Inject
    EntityManagerFactory emf;

    @Inject
    RwSplitRequest request;

    static String name(EntityManagerFactory emf, long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return em.find(Person.class, id).name;
        }
    }

    public String name(long id) {
        return name(emf, id);
    }

    @UsePrimary
    public String nameOnPrimary(long id) {
        return name(emf, id);
    }

    @UsePrimary
    public String failOnPrimary(long id) {
        name(emf, id);
        throw new IllegalStateException("failing inside @UsePrimary");
    }

    @Transactional
    public String nameInTransaction(long id) {
        return name(emf, id);
    }

    @ReadReplica
    @Transactional
    public String nameInReadOnlyTransaction(long id) {
        return name(emf, id);
    }

    @ReadReplica
    @Transactional
    public String readThenRename(long id, String newName) {
        try (EntityManager em = emf.createEntityManager()) {
            Person p = em.find(Person.class, id);
            String before = p.name;
            p.name = newName;
            em.flush();
            return before;
        }
    }

    @Transactional
    public void rename(long id, String newName) {
        try (EntityManager em = emf.createEntityManager()) {
            em.find(Person.class, id).name = newName;
            em.flush();
        }
    }

    @Transactional
    public void renameAndFail(long id, String newName) {
        rename(id, newName);
        throw new IllegalStateException("rolling back");
    }

    @ReadConsistency("read_your_writes")
    public io.rwsplit.Consistency consistencyInside() {
        return request.consistency();
    }

    @ReadConsistency("strong")
    public String nameStrong(long id) {
        return name(emf, id);
    }

    @ReadReplica(consistency = "strong")
    public String nameOnReplicaButStrong(long id) {
        return name(emf, id);
    }
}
