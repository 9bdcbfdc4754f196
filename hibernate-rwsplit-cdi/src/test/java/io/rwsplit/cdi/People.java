package io.rwsplit.cdi;

import jakarta.data.repository.Query;
import jakarta.data.repository.Repository;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** A Jakarta Data repository; Hibernate's annotation processor generates {@code People_}. */
@Repository
public interface People {

    @Query("select name from Person where id = :id")
    String name(long id);

    @ReadReplica
    @Query("select name from Person where id = :id")
    String nameFromReplica(long id);

    @UsePrimary
    @Query("select name from Person where id = :id")
    String nameFromPrimary(long id);
}
