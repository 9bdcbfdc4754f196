package io.rwsplit.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Formula;

/** An entity whose every load says which server answered. */
@Entity
@Table(name = "account")
public class Account {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String owner;

    public int balance;

    /** {@code @@server_id} of the server that ran the SELECT: 1 is the primary, 2.. the replicas. */
    @Formula("@@server_id")
    public int servedBy;

    public Account() {
    }

    public Account(String owner, int balance) {
        this.owner = owner;
        this.balance = balance;
    }
}
