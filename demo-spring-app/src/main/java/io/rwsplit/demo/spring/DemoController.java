package io.rwsplit.demo.spring;

import java.net.URI;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManagerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.rwsplit.RwSplit;

/**
 * The demo's stories as post/redirect/get over JSON, written the way a plain Spring application is: no
 * rwsplit code in the handlers. Each response names how the factory routed so far ({@code GET /stats}).
 */
@RestController
public class DemoController {

    private final Users users;
    private final Orders orders;
    private final EntityManagerFactory factory;

    public DemoController(Users users, Orders orders, EntityManagerFactory factory) {
        this.users = users;
        this.orders = orders;
        this.factory = factory;
    }

    @PostMapping("/users")
    public ResponseEntity<Void> signUp(@RequestParam String name) {
        AppUser user = users.save(new AppUser(name));
        return redirect("/users/" + user.getId());
    }

    @GetMapping("/users/{id}")
    public ResponseEntity<AppUser> profile(@PathVariable long id) {
        return ResponseEntity.of(users.findById(id));
    }

    /** Story 1, "I saved my profile and it changed back": edit, redirect, read back. */
    @PostMapping("/users/{id}/profile")
    public ResponseEntity<Void> editProfile(@PathVariable long id, @RequestParam String displayName) {
        AppUser user = users.findById(id).orElseThrow();
        user.rename(displayName);
        users.save(user);
        return redirect("/users/" + id);
    }

    /** Story 2, "my new order is missing": order, redirect, list. */
    @PostMapping("/users/{id}/orders")
    public ResponseEntity<Void> placeOrder(@PathVariable long id, @RequestParam String item) {
        orders.save(new PurchaseOrder(id, item));
        return redirect("/users/" + id + "/orders");
    }

    @GetMapping("/users/{id}/orders")
    public List<String> orders(@PathVariable long id) {
        return orders.findByUserIdOrderById(id).stream().map(PurchaseOrder::getItem).toList();
    }

    @GetMapping("/report")
    public Map<String, Object> report() {
        return Map.of("users", users.countForReport());
    }

    @GetMapping("/stats")
    public Map<String, Object> stats() {
        var stats = RwSplit.statistics(factory);
        return Map.of("primary", stats.primaryStatements(), "replica", stats.replicaStatements(),
                "byReason", stats.byReason());
    }

    private static ResponseEntity<Void> redirect(String location) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create(location)).build();
    }
}
