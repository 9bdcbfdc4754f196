package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import org.hibernate.annotations.Formula;

/** A {@link FailoverRow} on MariaDB: {@code @@port} says which server answered. */
@Entity
@Table(name = "failover_row")
public class MariaDbFailoverRow extends FailoverRow {

    @Formula("@@port")
    public int servedBy;

    @Override
    public int servedBy() {
        return servedBy;
    }
}
