package io.rwsplit.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The entity of the persistence unit {@code orders} (io.rwsplit.quarkus.it.SeveralUnitsProfile), in a package of its
 * own: "orders-primary-..." on its primary, "orders-replica-..." on its replica.
 */
@Entity
@Table(name = "customer")
public class Customer {

    @Id
    public Long id;

    public String name;

    protected Customer() {
    }

    public Customer(Long id, String name) {
        this.id = id;
        this.name = name;
    }
}
