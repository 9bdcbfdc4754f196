package io.rwsplit.bench;

import java.util.List;

/**
 * Where a benchmark's data lives: the primary's URL, the replicas' URLs and credentials. Hibernate detects
 * the dialect.
 */
public record Database(String primaryUrl, List<String> replicaUrls, String user, String password, boolean mariadb) {

    /**
     * Two private in-memory H2 databases: the primary and a "replica" that nothing replicates to. They are
     * seeded alike except for the rows' names ({@link Schema#recreate}), so a read shows which one served it.
     */
    public static Database h2(String name) {
        return new Database(h2Url(name), List.of(h2Url(name + "_replica")), "sa", "", false);
    }

    private static String h2Url(String name) {
        // DATABASE_TO_UPPER=false keeps table names as written (lower case), as ShardingSphere's metadata binder
        // is given them
        return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
    }

    /** The scripts/cluster.sh MariaDB cluster: primary on {@code basePort}, replicas on the next ports. */
    public static Database cluster(int basePort, int replicas) {
        List<String> replicaUrls = new java.util.ArrayList<>();
        for (int i = 1; i <= replicas; i++) {
            replicaUrls.add(mariadbUrl(basePort + i));
        }
        return new Database(mariadbUrl(basePort), List.copyOf(replicaUrls), "rwsplit", "rwsplit", true);
    }

    /** The scripts/pg-cluster.sh PostgreSQL cluster: primary on {@code basePort}, hot standbys on the next ports. */
    public static Database postgresCluster(int basePort, int replicas) {
        List<String> replicaUrls = new java.util.ArrayList<>();
        for (int i = 1; i <= replicas; i++) {
            replicaUrls.add(postgresUrl(basePort + i));
        }
        return new Database(postgresUrl(basePort), List.copyOf(replicaUrls), "rwsplit", "rwsplit", false);
    }

    private static String postgresUrl(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/rwsplit";
    }

    /** Whether this is the PostgreSQL cluster. */
    public boolean postgres() {
        return primaryUrl.startsWith("jdbc:postgresql:");
    }

    private static String mariadbUrl(int port) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/rwsplit";
    }

    /** "host:port" of a MariaDB URL built by {@link #cluster}. */
    static String hostPort(String url) {
        String rest = url.substring(url.indexOf("//") + 2);
        return rest.substring(0, rest.indexOf('/'));
    }
}
