package io.rwsplit.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the replicated MariaDB cluster of {@code scripts/cluster.sh}: one
 * primary and two read-only replicas on 127.0.0.1.
 *
 * <p>The cluster is started once per test run (and stopped at its end) unless it is already
 * running. Every test starts from a clean, in-sync cluster with an empty {@code rwsplit}
 * database. Test methods and constructors may declare a {@link Cluster} parameter.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("cluster")
@ExtendWith(ClusterExtension.class)
public @interface ReplicatedCluster {
}
