package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import org.hibernate.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.testing.Database;
import io.rwsplit.testing.PostgresCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.testing.TestCluster;

/**
 * {@link StatementHolesContract} on PostgreSQL, and what only a standby does: it refuses a function that writes
 * (SQLState 25006). In a read-only-by-preference transaction that moves the rest of the transaction to the primary at
 * READ COMMITTED, and fails the transaction with an error of its own at REPEATABLE READ.
 */
@ReplicatedCluster(Database.POSTGRESQL)
class PostgresStatementHolesIT extends StatementHolesContract {

    PostgresStatementHolesIT(PostgresCluster cluster) {
        super(cluster);
    }

    @BeforeEach
    void function() throws SQLException {
        cluster.update(TestCluster.PRIMARY, "create or replace function bump_holes(i int) returns int language sql as"
                + " $$ insert into holes values (i, 'bumped') returning id $$");
        cluster.delay(1, 0);
        cluster.delay(2, 0);
        cluster.sync();   // the standbys have the function
        cluster.delay(1, 1);   // and run a second behind again, as the contract's tests need
        cluster.delay(2, 1);
    }

    @Test
    void aFunctionThatWritesMovesAReadOnlyByPreferenceTransactionToThePrimaryAtReadCommitted() throws SQLException {
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            Number onReplica = (Number) em.createNativeQuery("select count(*) from holes").getSingleResult();
            assertEquals(0, onReplica.intValue());
            Number id = (Number) em.createNativeQuery("select bump_holes(80)").getSingleResult();
            assertEquals(80, id.intValue(), "run again on the primary");
            Number seen = (Number) em.createNativeQuery("select count(*) from holes where id = 80").getSingleResult();
            assertEquals(1, seen.intValue(), "the rest of the transaction reads the primary: its own write");
            em.getTransaction().commit();
        }
        assertEquals(1, cluster.queryInt(TestCluster.PRIMARY, "select count(*) from holes where id = 80"));
    }

    @Test
    void aFunctionThatWritesFailsAReadOnlyByPreferenceTransactionAtRepeatableReadSayingWhy() throws SQLException {
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);
            em.getTransaction().begin();
            em.unwrap(Session.class).doWork(c -> c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ));
            em.createNativeQuery("select count(*) from holes").getSingleResult();
            PersistenceException e = assertThrows(PersistenceException.class,
                    () -> em.createNativeQuery("select bump_holes(81)").getSingleResult());
            assertTrue(HealthContract.messages(e).contains("REPEATABLE READ"), HealthContract.messages(e));
            em.getTransaction().rollback();
        }
        assertEquals(0, cluster.queryInt(TestCluster.PRIMARY, "select count(*) from holes where id = 81"));
    }
}
