package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import org.hibernate.annotations.Formula;

/** A {@link FailoverRow} on PostgreSQL: {@code inet_server_port()} says which server answered. */
@Entity
@Table(name = "failover_row")
public class PgFailoverRow extends FailoverRow {

    @Formula("inet_server_port()")
    public int servedBy;

    @Override
    public int servedBy() {
        return servedBy;
    }
}
