package io.rwsplit.quarkus.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/** The application's data access, as a Quarkus user writes it: no routing code, only transactions. */
@ApplicationScoped
public class People {

    @Inject
    EntityManager em;

    /** A read outside any transaction (autocommit). */
    @ActivateRequestContext
    public String nameOf(long id) {
        Person p = em.find(Person.class, id);
        return p == null ? null : p.name;
    }

    /** A read in a JTA transaction that only reads. */
    @Transactional
    public String nameInTransaction(long id) {
        return em.find(Person.class, id).name;
    }

    /** A write, then a read in the same JTA transaction. */
    @Transactional
    public String addThenRead(long newId, String newName, long readId) {
        em.persist(new Person(newId, newName));
        em.flush();
        return em.find(Person.class, readId).name;
    }

    @Transactional
    public void add(long id, String name) {
        em.persist(new Person(id, name));
    }
}
