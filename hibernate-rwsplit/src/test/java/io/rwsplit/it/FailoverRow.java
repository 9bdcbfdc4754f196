package io.rwsplit.it;

import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/** One user's row of the failover load: the user's id and the number of its last committed write. */
@MappedSuperclass
public abstract class FailoverRow {

    @Id
    public Long id;

    public long written;

    /** The port of the server that answered the SELECT that loaded this row. */
    public abstract int servedBy();
}
