package io.rwsplit.demo.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A user's profile. Every edit bumps {@code revision}, so a reader can tell whether it sees the edit
 * it just made.
 */
@Entity
@Table(name = "profile")
public class Profile {

    @Id
    @Column(name = "user_id")
    private long userId;

    @Column(name = "display_name")
    private String displayName;

    private int revision;

    protected Profile() {
    }

    public Profile(long userId, String displayName) {
        this.userId = userId;
        this.displayName = displayName;
    }

    public long getUserId() {
        return userId;
    }

    public String getDisplayName() {
        return displayName;
    }

    public int getRevision() {
        return revision;
    }

    /** Renames the profile and returns the new revision. */
    public int edit(String newDisplayName) {
        this.displayName = newDisplayName;
        return ++revision;
    }
}
