package io.rwsplit.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Provides the replicated cluster to {@link ReplicatedCluster} test classes.
 *
 * <p>Once per test run (root store) it decides whether a cluster can exist here: when a
 * {@code mariadbd} or {@code mysqld} binary is installed the cluster must start and any failure
 * fails the tests; otherwise the tests are skipped with one message. A cluster started here is
 * stopped when the run ends; one that was already running is left running. Before each test the
 * cluster is reset to a clean, in-sync state.
 */
public final class ClusterExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    static final String SKIPPED = "no mariadbd/mysqld and no Docker: replicated-cluster tests skipped";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ClusterExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        session(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        session(context).reset();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Cluster.class;
    }

    @Override
    public Cluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return session(context);
    }

    /** The cluster of this test run, started on first use; skips or fails the caller if there is none. */
    private static Cluster session(ExtensionContext context) {
        Session session = context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Session.class, key -> Session.open(), Session.class);
        Assumptions.assumeTrue(session.skipReason() == null, session.skipReason());
        if (session.failure() != null) {
            throw new IllegalStateException("the replicated cluster could not start", session.failure());
        }
        return session.cluster();
    }

    /**
     * The outcome of the once-per-run decision, kept in the root store so that JUnit closes it
     * (stopping a cluster we started) when the whole run ends, even after failures.
     */
    private record Session(Cluster cluster, ClusterScript script, boolean stopAtEnd, String skipReason,
            RuntimeException failure) implements AutoCloseable {

        static Session open() {
            if (!databaseServerInstalled()) {
                // A Docker-based cluster (Testcontainers) is not implemented: skip either way.
                return new Session(null, null, false, dockerAvailable()
                        ? "no mariadbd/mysqld (a Docker-based cluster is not implemented): replicated-cluster tests skipped"
                        : SKIPPED, null);
            }
            ClusterScript script = null;
            boolean startedHere = false;
            try {
                script = ClusterScript.locate(Path.of(System.getProperty("user.dir")));
                // status: 0 = all nodes up, 1 = some up, 3 = none (or no cluster yet)
                int status = script.exec("status").exitCode();
                if (status != 0) {
                    startedHere = status == 3;
                    script.run("start");
                }
                return new Session(Cluster.describedBy(script), script, startedHere, null, null);
            } catch (RuntimeException e) {
                if (startedHere) {
                    script.exec("stop");
                }
                return new Session(null, null, false, null, e);
            }
        }

        @Override
        public void close() {
            if (stopAtEnd) {
                script.run("stop");
            }
        }

        private static boolean databaseServerInstalled() {
            return onPath("mariadbd") || onPath("mysqld")
                    || Files.isExecutable(Path.of("/usr/sbin/mariadbd")) || Files.isExecutable(Path.of("/usr/sbin/mysqld"));
        }

        private static boolean dockerAvailable() {
            return Files.exists(Path.of("/var/run/docker.sock")) || System.getenv("DOCKER_HOST") != null;
        }

        private static boolean onPath(String binary) {
            String path = System.getenv("PATH");
            return path != null && Arrays.stream(path.split(":"))
                    .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, binary)));
        }
    }
}
