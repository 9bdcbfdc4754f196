package io.rwsplit.demo.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A user of the demo shop. */
@Entity
@Table(name = "app_user")
public class AppUser {

    @Id
    private long id;

    private String name;

    protected AppUser() {
    }

    public AppUser(long id, String name) {
        this.id = id;
        this.name = name;
    }

    public long getId() {
        return id;
    }

    public String getName() {
        return name;
    }
}
