package io.rwsplit.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a replicated cluster of the given {@link Database} on 127.0.0.1: one primary and two
 * read-only replicas, started by {@code scripts/cluster.sh} (MariaDB, ports from {@code RWSPLIT_CLUSTER_BASE_PORT},
 * default 3307) or {@code scripts/pg-cluster.sh} (PostgreSQL, {@code RWSPLIT_PG_CLUSTER_BASE_PORT}, default 5441).
 *
 * <p>The cluster is started once per test run (and stopped at its end) unless it is already running. Every test
 * starts from a clean, in-sync cluster with an empty {@code rwsplit} database. Test methods and constructors may
 * declare a {@link TestCluster} parameter (or the database's own type, {@link MariaDbCluster} or
 * {@link PostgresCluster}). Where the database's server is installed the tests must run; elsewhere they are skipped
 * with one message. To run the same tests on both databases, write them in an abstract class taking a
 * {@link TestCluster} and annotate one subclass per database.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("cluster")
@ExtendWith(ClusterExtension.class)
public @interface ReplicatedCluster {

    /** The database the cluster runs. */
    Database value() default Database.MARIADB;
}
