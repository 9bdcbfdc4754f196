package io.rwsplit.quarkus.it;

import jakarta.data.repository.Query;
import jakarta.data.repository.Repository;

import io.rwsplit.ReadConsistency;
import io.rwsplit.UsePrimary;

/** A Jakarta Data repository with annotations on some of its methods only. */
@Repository
public interface Catalog {

    @Query("select name from Person where id = :id")
    String nameOf(long id);

    @UsePrimary
    @Query("select name from Person where id = :id")
    String nameOnPrimary(long id);

    @ReadConsistency("strong")
    @Query("select name from Person where id = :id")
    String strongNameOf(long id);
}
