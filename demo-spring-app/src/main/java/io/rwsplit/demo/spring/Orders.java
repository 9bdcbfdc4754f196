package io.rwsplit.demo.spring;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

public interface Orders extends JpaRepository<PurchaseOrder, Long> {

    List<PurchaseOrder> findByUserIdOrderById(Long userId);
}
