package io.rwsplit.demo;

import jakarta.persistence.EntityManager;

import io.rwsplit.demo.model.Profile;

/** Story 1: a user renames their profile; the next request loads the profile page. */
final class ProfileEditStory implements Story {

    @Override
    public String title() {
        return "edit profile, reload it";
    }

    @Override
    public ReadBack write(EntityManager em, long userId) {
        Profile profile = em.find(Profile.class, userId);
        int revision = profile.edit("user " + userId + " rev " + (profile.getRevision() + 1));
        return next -> next.find(Profile.class, userId).getRevision() >= revision;
    }
}
