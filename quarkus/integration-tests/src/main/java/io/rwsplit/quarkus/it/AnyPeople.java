package io.rwsplit.quarkus.it;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.rwsplit.UsePrimary;

/** A Panache repository without class-level annotations: one method of its own reads the primary. */
@ApplicationScoped
public class AnyPeople implements PanacheRepositoryBase<Person, Long> {

    @UsePrimary
    public long primaryNamesOnPrimary() {
        return count("name like ?1", "primary-%");
    }
}
