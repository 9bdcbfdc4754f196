package io.rwsplit.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The routing annotations on repositories as Quarkus users write them: Panache repositories (Panache's own methods,
 * which Panache writes into the class at build time, and the class's own) and Jakarta Data repositories, annotated on
 * the interface or its methods (CDI does not inherit bindings from interfaces: the extension copies them to the class
 * Hibernate's annotation processor generates). The unit's level is {@code eventual}, so an unannotated read goes to
 * the replica: "primary-..." or a count of primary rows tells the annotation applied.
 */
@QuarkusTest
class RepositoryRoutingTest {

    @Inject
    PrimaryPeople primaryPeople;

    @Inject
    AnyPeople anyPeople;

    @Inject
    PrimaryCatalog primaryCatalog;

    @Inject
    Catalog catalog;

    @Test
    void panachesOwnMethodsOfAUsePrimaryRepositoryReadThePrimary() {
        assertEquals(2, primaryPeople.count("name like ?1", "primary-%"));
        assertEquals(0, primaryPeople.count("name like ?1", "replica-%"));
    }

    @Test
    void anUnannotatedPanacheRepositoryReadsAReplicaAndItsAnnotatedMethodThePrimary() {
        assertEquals(0, anyPeople.count("name like ?1", "primary-%"), "an autocommit read at level eventual");
        assertEquals(2, anyPeople.primaryNamesOnPrimary());
    }

    @Test
    void aJakartaDataRepositoryAnnotatedOnItsInterfaceReadsThePrimary() {
        assertEquals("primary-alice", primaryCatalog.nameOf(1));
    }

    @Test
    void annotationsOnJakartaDataRepositoryMethodsApplyToThoseMethods() {
        assertEquals("replica-alice", catalog.nameOf(1));
        assertEquals("primary-alice", catalog.nameOnPrimary(1));
        assertEquals("primary-alice", catalog.strongNameOf(1), "strong reads the primary");
    }
}
