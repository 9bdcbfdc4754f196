package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order: the "place an order, then list my orders" story (IDENTITY ids: the insert runs at persist). */
@Entity
@Table(name = "purchase_order")
public class PurchaseOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String customer;

    public String item;

    public PurchaseOrder() {
    }

    public PurchaseOrder(String customer, String item) {
        this.customer = customer;
        this.item = item;
    }
}
