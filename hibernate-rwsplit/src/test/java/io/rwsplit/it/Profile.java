package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A user's profile: the "edit, then reload the page" story. */
@Entity
@Table(name = "profile")
public class Profile {

    @Id
    public Long id;

    public String bio;

    public Profile() {
    }
}
