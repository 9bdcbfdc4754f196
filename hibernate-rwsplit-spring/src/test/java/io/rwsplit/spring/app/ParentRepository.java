package io.rwsplit.spring.app;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.transaction.annotation.Transactional;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/**
 * The repository the routing tests call. {@code whoAmI} selects the serving node's identity: {@code @@server_id}
 * on MariaDB, the {@code node} table the H2 tests seed differently on each database.
 */
public interface ParentRepository extends JpaRepository<Parent, Long> {

    /** Served by: a read-write transaction begun here, so the primary. */
    @Transactional
    @Query(value = "select name from node", nativeQuery = true)
    String whoAmIInWriteTransaction();

    /** The same with @ReadReplica: the transaction begins under the annotation, reads go to a replica. */
    @ReadReplica
    @Transactional
    @Query(value = "select name from node", nativeQuery = true)
    String whoAmIOnReplica();

    /** A read-only transaction that @UsePrimary keeps on the primary. */
    @UsePrimary
    @Transactional(readOnly = true)
    @Query(value = "select name from node", nativeQuery = true)
    String whoAmIOnPrimary();

    /** No annotation: inherits the caller's intent. */
    @Query(value = "select name from node", nativeQuery = true)
    String whoAmI();

    /** A derived query with @ReadReplica inside a read-write transaction it begins. */
    @ReadReplica
    @Transactional
    List<Parent> findByName(String name);

    @Query(value = "select @@server_id", nativeQuery = true)
    long serverId();

    @ReadReplica
    @Transactional
    @Query(value = "select @@server_id", nativeQuery = true)
    long serverIdOnReplica();

    @Transactional
    @Query(value = "select @@server_id", nativeQuery = true)
    long serverIdInWriteTransaction();
}
