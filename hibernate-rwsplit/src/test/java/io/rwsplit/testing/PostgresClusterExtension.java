package io.rwsplit.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Provides the replicated PostgreSQL cluster to {@link ReplicatedPostgresCluster} test classes: the
 * PostgreSQL flavour of {@link ClusterExtension}, with the same rules. When the server binaries are
 * installed ({@code /usr/lib/postgresql/<version>/bin/postgres}, or {@code RWSPLIT_PG_BIN}) the cluster must
 * start and any failure fails the tests; otherwise they are skipped with one message. A cluster started here
 * is stopped when the run ends; before each test it is reset to a clean, in-sync state.
 */
public final class PostgresClusterExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    static final String SKIPPED = "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/postgres):"
            + " replicated PostgreSQL tests skipped";

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(PostgresClusterExtension.class);

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
        return parameter.getParameter().getType() == PostgresCluster.class;
    }

    @Override
    public PostgresCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return session(context);
    }

    private static PostgresCluster session(ExtensionContext context) {
        Session session = context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Session.class, key -> Session.open(), Session.class);
        Assumptions.assumeTrue(session.skipReason() == null, session.skipReason());
        if (session.failure() != null) {
            throw new IllegalStateException("the replicated PostgreSQL cluster could not start", session.failure());
        }
        return session.cluster();
    }

    private record Session(PostgresCluster cluster, ClusterScript script, boolean stopAtEnd, String skipReason,
            RuntimeException failure) implements AutoCloseable {

        static Session open() {
            if (!serverInstalled()) {
                return new Session(null, null, false, SKIPPED, null);
            }
            ClusterScript script = null;
            boolean startedHere = false;
            try {
                script = ClusterScript.locate(Path.of(System.getProperty("user.dir")), ClusterScript.POSTGRES_RELATIVE_PATH);
                int status = script.exec("status").exitCode();
                if (status != 0) {
                    startedHere = status == 3;
                    script.run("start");
                }
                return new Session(PostgresCluster.describedBy(script), script, startedHere, null, null);
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

        static boolean serverInstalled() {
            String bin = System.getenv("RWSPLIT_PG_BIN");
            if (bin != null && !bin.isBlank()) {
                return Files.isExecutable(Path.of(bin, "postgres"));
            }
            Path root = Path.of("/usr/lib/postgresql");
            if (!Files.isDirectory(root)) {
                return false;
            }
            try (DirectoryStream<Path> versions = Files.newDirectoryStream(root)) {
                for (Path version : versions) {
                    if (Files.isExecutable(version.resolve("bin/postgres"))) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                return false;
            }
        }
    }
}
