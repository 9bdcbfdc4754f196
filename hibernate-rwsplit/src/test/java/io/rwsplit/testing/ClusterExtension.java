package io.rwsplit.testing;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Provides the replicated cluster to {@link ReplicatedCluster} test classes, for either {@link Database}.
 *
 * <p>Once per test run and database (root store) it decides whether a cluster can exist here: when the database's
 * server is installed the cluster must start and any failure fails the tests; otherwise the tests are skipped with
 * one message. A cluster started here is stopped when the run ends; one that was already running is left running.
 * Before each test the cluster is reset to a clean, in-sync state.
 */
public final class ClusterExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ClusterExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        cluster(context).reset();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return TestCluster.class.isAssignableFrom(type)
                && type.isAssignableFrom(database(context) == Database.MARIADB ? MariaDbCluster.class : PostgresCluster.class);
    }

    @Override
    public TestCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster(context);
    }

    /** The database the test class (or one that encloses it) asks for. */
    private static Database database(ExtensionContext context) {
        for (Optional<Class<?>> type = context.getTestClass(); type.isPresent();
                type = Optional.ofNullable(type.get().getEnclosingClass())) {
            Optional<ReplicatedCluster> annotation = AnnotationSupport.findAnnotation(type.get(), ReplicatedCluster.class);
            if (annotation.isPresent()) {
                return annotation.get().value();
            }
        }
        throw new IllegalStateException("ClusterExtension serves classes annotated @ReplicatedCluster, not "
                + context.getTestClass().map(Class::getName).orElse(context.getDisplayName()));
    }

    /** The cluster of this test run, started on first use; skips or fails the caller if there is none. */
    private static TestCluster cluster(ExtensionContext context) {
        Database database = database(context);
        Session session = context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(database, Session::open, Session.class);
        Assumptions.assumeTrue(session.skipReason() == null, session.skipReason());
        if (session.failure() != null) {
            throw new IllegalStateException("the replicated " + database + " cluster could not start", session.failure());
        }
        return session.cluster();
    }

    /**
     * The outcome of the once-per-run decision for one database, kept in the root store so that JUnit closes it
     * (stopping a cluster we started) when the whole run ends, even after failures.
     */
    private record Session(TestCluster cluster, boolean stopAtEnd, String skipReason, RuntimeException failure)
            implements AutoCloseable {

        static Session open(Database database) {
            if (!database.serverInstalled()) {
                return new Session(null, false, database.skipReason(), null);
            }
            ClusterScript script = null;
            boolean startedHere = false;
            try {
                script = ClusterScript.locate(Path.of(System.getProperty("user.dir")), database.script());
                // status: 0 = all nodes up, 1 = some up, 3 = none (or no cluster yet)
                int status = script.exec("status").exitCode();
                if (status != 0) {
                    startedHere = status == 3;
                    script.run("start");
                }
                return new Session(TestCluster.describedBy(database, script), startedHere, null, null);
            } catch (RuntimeException e) {
                if (startedHere) {
                    script.exec("stop");
                }
                return new Session(null, false, null, e);
            }
        }

        /**
         * Leaves the cluster as the run found it: reset (the last test may have detached a replica, which a later
         * {@code start} on the same data would wait for in vain), then stopped if it was started here.
         */
        @Override
        public void close() {
            if (cluster == null) {
                return;
            }
            try {
                cluster.reset();
            }
            catch (RuntimeException e) {
                // the run's tests are done: the next run's start repairs what this left (its reset runs the script's)
                System.err.println("ClusterExtension: resetting the " + cluster.kind() + " cluster after the run failed: " + e);
            }
            finally {
                if (stopAtEnd) {
                    cluster.stop();
                }
            }
        }
    }
}
