package io.rwsplit.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;

class SmokeTest {
    @Test
    void findOutsideTransactionReadsReplica() {
        H2Pair h2 = new H2Pair();
        try (EntityManagerFactory emf = h2.factory(); EntityManager em = emf.createEntityManager()) {
            assertEquals("replica-alice", em.find(Person.class, 1L).name);
            em.getTransaction().begin();
            Person p = new Person("carol");
            em.persist(p);
            em.getTransaction().commit();
            System.out.println(RwSplit.statistics(em));
            System.out.println(RwSplit.statistics(emf));
        }
        finally {
            h2.close();
        }
    }
}
