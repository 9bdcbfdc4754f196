package io.rwsplit.quarkus.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.quarkus.hibernate.orm.PersistenceUnit;
import io.rwsplit.orders.Customer;

/**
 * Data access of the persistence unit {@code orders} ({@link SeveralUnitsProfile}); selected by name so that the
 * profiles without that unit still build.
 */
@ApplicationScoped
public class Orders {

    @Inject
    @Any
    Instance<EntityManager> entityManagers;

    /** A read outside any transaction (autocommit). */
    @ActivateRequestContext
    public String nameOf(long id) {
        Customer c = em().find(Customer.class, id);
        return c == null ? null : c.name;
    }

    @Transactional
    public void add(long id, String name) {
        em().persist(new Customer(id, name));
    }

    private EntityManager em() {
        return entityManagers.select(new PersistenceUnit.PersistenceUnitLiteral(SeveralUnitsProfile.ORDERS)).get();
    }
}
