package io.rwsplit.it;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;

/**
 * A parent with a unidirectional {@code @OneToMany @JoinColumn} child list, as web applications map them:
 * merging a copy read from a stale replica writes {@code update photo set album_id = null} for every photo
 * the copy lacks.
 */
@Entity
@Table(name = "album")
public class Album {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String title;

    @OneToMany(cascade = CascadeType.ALL, fetch = FetchType.EAGER)
    @JoinColumn(name = "album_id")
    public List<Photo> photos = new ArrayList<>();

    public Album() {
    }

    public Album(String title) {
        this.title = title;
    }
}
