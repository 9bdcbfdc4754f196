package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A child of {@link Album}; it does not know its parent. */
@Entity
@Table(name = "photo")
public class Photo {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String caption;

    public Photo() {
    }

    public Photo(String caption) {
        this.caption = caption;
    }
}
