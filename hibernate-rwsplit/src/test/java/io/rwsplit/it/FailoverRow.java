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

    /** The row entity of the database {@code kind}. */
    static Class<? extends FailoverRow> type(io.rwsplit.testing.Database kind) {
        return kind == io.rwsplit.testing.Database.POSTGRESQL ? PgFailoverRow.class : MariaDbFailoverRow.class;
    }

    /** A new row of the database {@code kind}. */
    static FailoverRow of(io.rwsplit.testing.Database kind) {
        return kind == io.rwsplit.testing.Database.POSTGRESQL ? new PgFailoverRow() : new MariaDbFailoverRow();
    }
}
