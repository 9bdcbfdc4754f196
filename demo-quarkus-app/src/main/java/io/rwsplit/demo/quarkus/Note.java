package io.rwsplit.demo.quarkus;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A note: a line of text and when it was written. */
@Entity
@Table(name = "note")
public class Note {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, length = 500)
    private String text;

    @Column(nullable = false)
    private Instant created;

    protected Note() {
    }

    public Note(String text, Instant created) {
        this.text = text;
        this.created = created;
    }

    public Long id() {
        return id;
    }

    public String text() {
        return text;
    }

    public Instant created() {
        return created;
    }
}
