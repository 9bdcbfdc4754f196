package io.rwsplit.spring.app;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Post/redirect/get the way a plain Spring MVC application writes it: no transaction around the handler,
 * {@code findById} then {@code save} (a merge) for a child addition.
 */
@RestController
public class ParentController {

    private final ParentRepository parents;

    public ParentController(ParentRepository parents) {
        this.parents = parents;
    }

    @PostMapping("/parents")
    public ResponseEntity<Void> create(@RequestParam("name") String name) {
        Parent saved = parents.save(new Parent(name));
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create("/parents/" + saved.getId())).build();
    }

    @PostMapping("/parents/{id}/children")
    public ResponseEntity<Void> addChild(@PathVariable("id") long id, @RequestParam("name") String name) {
        Parent parent = parents.findById(id).orElseThrow();
        parent.getChildren().add(new Child(name));
        parents.save(parent);
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create("/parents/" + id)).build();
    }

    @GetMapping("/parents/{id}")
    public ResponseEntity<Map<String, Object>> show(@PathVariable("id") long id) {
        return parents.findById(id)
                .map(p -> ResponseEntity.ok(Map.<String, Object>of("id", p.getId(), "name", p.getName(),
                        "children", p.getChildren().stream().map(Child::getName).toList())))
                .orElse(ResponseEntity.notFound().build());
    }

    @GetMapping("/whoami")
    public String whoAmI() {
        return parents.whoAmI();
    }

    @PostMapping("/whoami")
    public String whoAmIPost() {
        return parents.whoAmI();
    }

    @GetMapping("/children-of/{id}")
    public List<String> childrenOf(@PathVariable("id") long id) {
        return parents.findById(id).map(p -> p.getChildren().stream().map(Child::getName).toList()).orElse(List.of());
    }
}
