package io.rwsplit.demo.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order placed by a user. Ids are assigned by the application, so the demo knows each one in advance. */
@Entity
@Table(name = "purchase_order")
public class PurchaseOrder {

    @Id
    private long id;

    @Column(name = "user_id")
    private long userId;

    private String item;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(long id, long userId, String item) {
        this.id = id;
        this.userId = userId;
        this.item = item;
    }

    public long getId() {
        return id;
    }

    public long getUserId() {
        return userId;
    }

    public String getItem() {
        return item;
    }
}
