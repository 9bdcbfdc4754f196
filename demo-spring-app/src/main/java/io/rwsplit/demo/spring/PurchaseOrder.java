package io.rwsplit.demo.spring;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

@Entity
public class PurchaseOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private Long userId;

    private String item;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(Long userId, String item) {
        this.userId = userId;
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public Long getUserId() {
        return userId;
    }

    public String getItem() {
        return item;
    }
}
