package io.rwsplit.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/** The databases a {@link TestCluster} can run: which script drives it and whether its server is installed here. */
public enum Database {

    /** One MariaDB primary and read-only replicas, GTID replication ({@code scripts/cluster.sh}). */
    MARIADB("scripts/cluster.sh", "@@server_id",
            "no mariadbd/mysqld: replicated MariaDB tests skipped") {
        @Override
        boolean serverInstalled() {
            return onPath("mariadbd") || onPath("mysqld")
                    || Files.isExecutable(Path.of("/usr/sbin/mariadbd")) || Files.isExecutable(Path.of("/usr/sbin/mysqld"));
        }

        @Override
        TestCluster describe(ClusterScript script, Map<String, String> info) {
            return new MariaDbCluster(script, info);
        }
    },

    /** One PostgreSQL primary and hot standbys, streaming replication ({@code scripts/pg-cluster.sh}). */
    POSTGRESQL("scripts/pg-cluster.sh", "inet_server_port()",
            "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/postgres): replicated PostgreSQL tests skipped") {
        @Override
        boolean serverInstalled() {
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

        @Override
        TestCluster describe(ClusterScript script, Map<String, String> info) {
            return new PostgresCluster(script, info);
        }
    };

    private final String script;
    private final String serverIdentity;
    private final String skipReason;

    Database(String script, String serverIdentity, String skipReason) {
        this.script = script;
        this.serverIdentity = serverIdentity;
        this.skipReason = skipReason;
    }

    /** The cluster script, relative to the repository root. */
    public String script() {
        return script;
    }

    /**
     * An SQL expression naming the server that evaluates it, distinct for every node of a cluster: MariaDB's
     * {@code @@server_id} (1 the primary, 2.. the replicas), PostgreSQL's {@code inet_server_port()} (the node's
     * port). Usable in a {@code @Formula} or a SELECT list.
     */
    public String serverIdentity() {
        return serverIdentity;
    }

    /** The message tests are skipped with where the server is not installed. */
    String skipReason() {
        return skipReason;
    }

    /** True when this machine has the server binaries: then the cluster must start and its tests must run. */
    abstract boolean serverInstalled();

    abstract TestCluster describe(ClusterScript script, Map<String, String> info);

    private static boolean onPath(String binary) {
        String path = System.getenv("PATH");
        return path != null && Arrays.stream(path.split(":"))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, binary)));
    }
}
