package io.rwsplit.demo.spring;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "app_user")
public class AppUser {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String name;

    private String displayName;

    private int revision;

    protected AppUser() {
    }

    public AppUser(String name) {
        this.name = name;
        this.displayName = name;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public String getDisplayName() {
        return displayName;
    }

    public int getRevision() {
        return revision;
    }

    /** The profile edit of the demo's first story. */
    public void rename(String displayName) {
        this.displayName = displayName;
        this.revision++;
    }
}
