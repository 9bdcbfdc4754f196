package io.rwsplit.demo.quarkus;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * The notes, as a Quarkus application keeps them: writes in {@code @Transactional} methods, reads without a
 * transaction. No routing code: the reads go to a replica that has the client's last write, or to the primary.
 */
@ApplicationScoped
public class Notes {

    @Inject
    EntityManager em;

    @Transactional
    public Note add(String text) {
        Note note = new Note(text, Instant.now());
        em.persist(note);
        return note;
    }

    public Optional<Note> find(long id) {
        return Optional.ofNullable(em.find(Note.class, id));
    }

    /** The {@code max} newest notes, newest first. */
    public List<Note> newest(int max) {
        return em.createQuery("select n from Note n order by n.id desc", Note.class).setMaxResults(max).getResultList();
    }
}
