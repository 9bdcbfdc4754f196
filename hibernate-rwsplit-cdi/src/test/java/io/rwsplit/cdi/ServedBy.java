package io.rwsplit.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/**
 * Bean methods of {@link CdiClusterIT}: every read returns the {@code @@server_id} of the node that ran it
 * (1 on the primary, 2 and 3 on the replicas), from the same statement as the data it reads.
 */
@ApplicationScoped
public class ServedBy {

    /** One row of table {@code note}, and the server that read it. */
    public record Note(String text, int serverId) {
    }

    @Inject
    EntityManagerFactory emf;

    @Inject
    ServedBy self;

    static int serverId(EntityManagerFactory emf) {
        try (EntityManager em = emf.createEntityManager()) {
            return ((Number) em.createNativeQuery("select @@server_id").getSingleResult()).intValue();
        }
    }

    static Note note(EntityManagerFactory emf, int id) {
        try (EntityManager em = emf.createEntityManager()) {
            Object[] row = (Object[]) em.createNativeQuery("select text, @@server_id from note where id = ?1")
                    .setParameter(1, id)
                    .getSingleResult();
            return new Note((String) row[0], ((Number) row[1]).intValue());
        }
    }

    public int serverId() {
        return serverId(emf);
    }

    public Note note(int id) {
        return note(emf, id);
    }

    /**
     * A transaction the call begins: read-write on the primary without {@code @ReadReplica} (reads outside any
     * transaction go to a replica anyway), a read-only path on one replica with it.
     */
    @ReadReplica
    @Transactional
    public int serverIdOnReplica() {
        return serverId(emf);
    }

    @ReadReplica
    public Note noteOnReplica(int id) {
        return note(emf, id);
    }

    @UsePrimary
    public int serverIdOnPrimary() {
        return serverId(emf);
    }

    /** The outer read, the inner {@code @UsePrimary} call's read, then the outer read again. */
    @ReadReplica
    public int[] serverIdsAroundPrimaryCall() {
        return new int[] {serverId(emf), self.serverIdOnPrimary(), serverId(emf)};
    }

    /** Reads {@code @@server_id} before it writes, then writes; commits when it returns. */
    @Transactional
    public int readThenWrite(int id, String text) {
        try (EntityManager em = emf.createEntityManager()) {
            int before = ((Number) em.createNativeQuery("select @@server_id").getSingleResult()).intValue();
            em.createNativeQuery("update note set text = ?1 where id = ?2")
                    .setParameter(1, text)
                    .setParameter(2, id)
                    .executeUpdate();
            return before;
        }
    }
}
