package io.rwsplit.quarkus.it;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.rwsplit.UsePrimary;

/** A Panache repository whose every method, Panache's own included, reads the primary. */
@UsePrimary
@ApplicationScoped
public class PrimaryPeople implements PanacheRepositoryBase<Person, Long> {
}
