package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One committed write of the failover load (user and sequence number), to tell lost writes from stale reads. */
@Entity
@Table(name = "failover_entry")
public class FailoverEntry {

    @Id
    public Long id;

    public FailoverEntry() {
    }

    public FailoverEntry(long id) {
        this.id = id;
    }
}
