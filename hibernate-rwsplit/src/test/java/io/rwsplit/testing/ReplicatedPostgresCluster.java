package io.rwsplit.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the replicated PostgreSQL cluster of {@code scripts/pg-cluster.sh}: one
 * primary and two hot standbys (streaming replication) on 127.0.0.1, ports 5441-5443 unless
 * {@code RWSPLIT_PG_CLUSTER_BASE_PORT} moves them.
 *
 * <p>The cluster is started once per test run (and stopped at its end) unless it is already
 * running. Every test starts from a clean, in-sync cluster with an empty {@code rwsplit}
 * database. Test methods and constructors may declare a {@link PostgresCluster} parameter. Where the
 * PostgreSQL server binaries are installed the tests must run; elsewhere they are skipped.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("cluster")
@Tag("postgresql")
@ExtendWith(PostgresClusterExtension.class)
public @interface ReplicatedPostgresCluster {
}
