package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Formula;

/** An account on PostgreSQL whose every load says which server answered. */
@Entity
@Table(name = "account")
public class PgAccount {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String owner;

    public int balance;

    /** {@code inet_server_port()} of the server that ran the SELECT: the primary's port or a standby's. */
    @Formula("inet_server_port()")
    public int servedBy;

    public PgAccount() {
    }

    public PgAccount(String owner, int balance) {
        this.owner = owner;
        this.balance = balance;
    }
}
