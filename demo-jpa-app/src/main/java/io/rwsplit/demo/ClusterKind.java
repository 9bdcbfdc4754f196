package io.rwsplit.demo;

/** The replicated clusters the demo can run on, each started and controlled by its own script. */
enum ClusterKind {

    MARIADB("MariaDB", "jdbc:mariadb://", "scripts/cluster.sh", "RWSPLIT_CLUSTER_BASE_PORT", 3307,
            "real GTID replication", "MASTER_DELAY"),
    POSTGRES("PostgreSQL", "jdbc:postgresql://", "scripts/pg-cluster.sh", "RWSPLIT_PG_CLUSTER_BASE_PORT", 5441,
            "real streaming replication to hot standbys", "recovery_min_apply_delay");

    final String product;
    final String urlPrefix;
    final String script;
    final String portVariable;
    final int defaultPort;
    final String replication;
    final String delaySetting;

    ClusterKind(String product, String urlPrefix, String script, String portVariable, int defaultPort,
                String replication, String delaySetting) {
        this.product = product;
        this.urlPrefix = urlPrefix;
        this.script = script;
        this.portVariable = portVariable;
        this.defaultPort = defaultPort;
        this.replication = replication;
        this.delaySetting = delaySetting;
    }

    /** {@code mariadb}, {@code postgres} or {@code postgresql}; {@code null} for anything else. */
    static ClusterKind named(String name) {
        return switch (name) {
            case "mariadb" -> MARIADB;
            case "postgres", "postgresql" -> POSTGRES;
            default -> null;
        };
    }
}
