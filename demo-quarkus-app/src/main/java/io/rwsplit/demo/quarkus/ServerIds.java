package io.rwsplit.demo.quarkus;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.rwsplit.ReadReplica;

/**
 * Which server answers a read, in each of the situations the routing tells apart: {@code @@server_id} is 1 on the
 * cluster's primary, 2 and 3 on its replicas (scripts/cluster.sh).
 */
@ApplicationScoped
public class ServerIds {

    @Inject
    EntityManager em;

    /** A read outside any transaction (autocommit): a replica's, unless the routing needs the primary. */
    public int read() {
        return serverId("select @@server_id");
    }

    /** A read in a read-write JTA transaction: every statement of one runs on the primary. */
    @Transactional
    public int readInTransaction() {
        return serverId("select @@server_id");
    }

    /** A locking read ({@code SELECT ... FOR UPDATE}): it runs where the locks are, on the primary. */
    @Transactional
    public int lockingRead() {
        return serverId("select @@server_id from dual for update");
    }

    /** A read in a call that asks for a replica. */
    @ReadReplica
    public int readOnReplica() {
        return serverId("select @@server_id");
    }

    /**
     * A read, then a locking read, in a read-only by preference transaction ({@code @ReadReplica} on a
     * {@code @Transactional} method): the read goes to a replica, the locking read to the primary.
     */
    @ReadReplica
    @Transactional
    public int[] readThenLockInReadOnlyTransaction() {
        return new int[] {serverId("select @@server_id"), serverId("select @@server_id from dual for update")};
    }

    private int serverId(String sql) {
        return ((Number) em.createNativeQuery(sql).getSingleResult()).intValue();
    }
}
