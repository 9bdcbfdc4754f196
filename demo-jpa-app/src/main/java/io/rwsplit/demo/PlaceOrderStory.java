package io.rwsplit.demo;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.EntityManager;

import io.rwsplit.demo.model.PurchaseOrder;

/** Story 2: a user places an order; the next request lists their orders. */
final class PlaceOrderStory implements Story {

    private final AtomicLong orderIds = new AtomicLong();

    @Override
    public String title() {
        return "place order, list orders";
    }

    @Override
    public ReadBack write(EntityManager em, long userId) {
        long orderId = orderIds.incrementAndGet();
        em.persist(new PurchaseOrder(orderId, userId, "item " + orderId));
        return next -> next.createQuery("select o.id from PurchaseOrder o where o.userId = :user", Long.class)
                .setParameter("user", userId)
                .getResultList()
                .contains(orderId);
    }
}
