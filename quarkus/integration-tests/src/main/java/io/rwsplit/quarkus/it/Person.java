package io.rwsplit.quarkus.it;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A row whose name tells which server answered: "primary-..." on the primary, "replica-..." on the replica. */
@Entity
@Table(name = "person")
public class Person {

    @Id
    public Long id;

    public String name;

    protected Person() {
    }

    public Person(Long id, String name) {
        this.id = id;
        this.name = name;
    }
}
