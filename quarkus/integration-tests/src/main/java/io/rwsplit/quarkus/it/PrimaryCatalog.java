package io.rwsplit.quarkus.it;

import jakarta.data.repository.Query;
import jakarta.data.repository.Repository;

import io.rwsplit.UsePrimary;

/** A Jakarta Data repository annotated on the interface: Hibernate's annotation processor writes the bean class. */
@Repository
@UsePrimary
public interface PrimaryCatalog {

    @Query("select name from Person where id = :id")
    String nameOf(long id);
}
