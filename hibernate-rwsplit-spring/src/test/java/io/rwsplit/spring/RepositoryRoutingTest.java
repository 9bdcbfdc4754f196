package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;

import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.spring.app.Nodes;
import io.rwsplit.spring.app.ParentRepository;
import io.rwsplit.UsePrimary;

/**
 * {@code @ReadReplica} / {@code @UsePrimary} on Spring Data repository interface methods and on a service, in a
 * real Spring Boot application on two H2 databases whose {@code node} table tells which one served a statement.
 */
class RepositoryRoutingTest {

    private static ConfigurableApplicationContext app;
    private static ParentRepository parents;
    private static Nodes nodes;

    @BeforeAll
    static void start() throws SQLException {
        app = H2App.get().context;
        parents = app.getBean(ParentRepository.class);
        nodes = app.getBean(Nodes.class);
    }

    @Test
    void readReplicaOnARepositoryMethodReadsFromTheReplicaWithoutACallerTransaction() {
        assertEquals("primary", parents.whoAmIInWriteTransaction(), "control: a read-write transaction reads the primary");
        assertEquals("replica", parents.whoAmIOnReplica());
    }

    @Test
    void usePrimaryOnARepositoryMethodWinsOverItsReadOnlyTransaction() {
        assertEquals("primary", parents.whoAmIOnPrimary());
    }

    @Test
    void readReplicaOnADerivedQueryReadsFromTheReplica() {
        RoutingStatistics stats = RwSplit.statistics(app.getBean(EntityManagerFactory.class));
        long before = stats.byReplica().getOrDefault("r1", 0L);
        parents.findByName("nobody");
        assertEquals(before + 1, stats.byReplica().getOrDefault("r1", 0L), stats.toString());
    }

    @Test
    void readReplicaOnAServiceAppliesToTheRepositoryCallsInside() {
        assertEquals("replica", nodes.onReplica());
    }

    @Test
    void nestedUsePrimaryWinsAndTheOuterIntentIsRestoredAfterIt() {
        assertArrayEquals(new String[] {"replica", "primary", "replica"}, nodes.replicaThenNestedPrimaryThenReplica());
    }

    @Test
    void usePrimaryWithoutTransactionReadsThePrimary() {
        assertEquals("replica", parents.whoAmI(), "control: a plain read outside a transaction goes to a replica");
        assertEquals("primary", nodes.onPrimaryWithoutTransaction());
    }

    @Test
    void consistencyOnAServiceSetsTheLevelOfTheReadsInside() {
        assertEquals("primary", nodes.strong());
        assertEquals("replica", parents.whoAmI(), "the level ends with the call");
    }

    @Test
    void anExceptionInsideAnAnnotatedCallRestoresTheOuterIntent() {
        assertEquals("primary", nodes.primaryAroundFailingReplicaCall());
    }
}
