package io.rwsplit.quarkus.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadConsistency;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/**
 * Reads under the routing annotations. Each read is a query for the name (never a cached entity), so that two reads
 * of one request-scoped session both reach a server.
 */
@ApplicationScoped
public class AnnotatedReads {

    @Inject
    EntityManager em;

    @ReadReplica
    public String onReplica(long id) {
        return name(id);
    }

    @UsePrimary
    public String onPrimary(long id) {
        return name(id);
    }

    @UsePrimary
    public String failOnPrimary(long id) {
        name(id);
        throw new IllegalStateException("failed on purpose");
    }

    /** A read-only by preference JTA transaction. */
    @ReadReplica
    @Transactional
    public String inReplicaTransaction(long id) {
        return name(id);
    }

    /**
     * Reads person {@code readId}, renames person {@code renameId} in the same {@code @ReadReplica} transaction, then
     * reads {@code readId} again: both reads are returned.
     */
    @ReadReplica
    @Transactional
    public String[] readRenameRead(long readId, long renameId, String newName) {
        String before = name(readId);
        rename(renameId, newName);
        return new String[] {before, name(readId)};
    }

    /** Reads, renames in the same {@code @ReadReplica} transaction, then throws: the transaction rolls back. */
    @ReadReplica
    @Transactional
    public void readRenameFail(long readId, long renameId, String newName) {
        name(readId);
        rename(renameId, newName);
        throw new IllegalStateException("failed on purpose");
    }

    @ReadConsistency("strong")
    public String strong(long id) {
        return name(id);
    }

    @ReadReplica(consistency = "strong")
    public String onReplicaButStrong(long id) {
        return name(id);
    }

    @ReadConsistency("read_your_writes")
    public String readYourWrites(long id) {
        return name(id);
    }

    @ReadConsistency("eventual")
    public String eventual(long id) {
        return name(id);
    }

    private void rename(long id, String newName) {
        em.createQuery("update Person p set p.name = :name where p.id = :id").setParameter("name", newName)
                .setParameter("id", id).executeUpdate();
    }

    /** Unannotated: routed by the enclosing call's annotations, or by the core alone. */
    public String name(long id) {
        return em.createQuery("select p.name from Person p where p.id = :id", String.class).setParameter("id", id)
                .getSingleResult();
    }
}
