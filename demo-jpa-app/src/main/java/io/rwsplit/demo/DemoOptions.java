package io.rwsplit.demo;

import java.time.Duration;
import java.util.List;

/** Command-line options; every option has a default, so the demo runs with none. */
record DemoOptions(
        boolean cluster,
        ClusterKind clusterKind,
        int clusterPort,
        int clusterReplicas,
        Integer clusterDelaySeconds,
        Duration embeddedDelay,
        int users,
        int iterations,
        Duration maxThinkTime,
        boolean help) {

    static final String USAGE = """
            Usage: java -jar demo-jpa-app/target/demo-jpa-app.jar [options]

            Runs two stories (edit profile then reload it; place an order then list orders) with
            concurrent users, under consistency EVENTUAL (stale reads appear) and READ_YOUR_WRITES
            (none may appear), and prints what happened. Exits 1 if READ_YOUR_WRITES ever read stale data.

              --users N            concurrent users (default 8)
              --iterations N       write-then-read rounds per user and run (default 20; 10 with --cluster)
              --think-ms N         longest pause between a write and the next request
                                   (default: 1.5 x the replica lag measured at start)
              --delay-ms N         embedded: simulated replication delay (default 200)
              --cluster [mariadb]  use the MariaDB cluster of scripts/cluster.sh instead of embedded H2
              --cluster postgres   use the PostgreSQL cluster of scripts/pg-cluster.sh (hot standbys)
              --cluster-port N     the cluster's base port: primary N, replicas N+1..
                                   (default 3307 for MariaDB, 5441 for PostgreSQL)
              --cluster-replicas N replicas in the cluster (default 2)
              --delay S            cluster: make every replica apply commits S seconds late via the
                                   cluster's script (MASTER_DELAY or recovery_min_apply_delay; run from
                                   the repository root)
              --help               this text
            """;

    static DemoOptions parse(String... args) {
        boolean cluster = false;
        ClusterKind kind = ClusterKind.MARIADB;
        boolean help = false;
        Integer clusterPort = null;
        int clusterReplicas = 2;
        Integer clusterDelay = null;
        long delayMs = 200;
        int users = 8;
        Integer iterations = null;
        Long thinkMs = null;
        List<String> list = List.of(args);
        for (int i = 0; i < list.size(); i++) {
            String option = list.get(i);
            switch (option) {
                case "--cluster" -> {
                    cluster = true;
                    ClusterKind named = i + 1 < list.size() ? ClusterKind.named(list.get(i + 1)) : null;
                    if (named != null) {
                        kind = named;
                        i++;
                    }
                }
                case "--help", "-h" -> help = true;
                case "--cluster-port" -> clusterPort = positive(option, value(list, ++i, option));
                case "--cluster-replicas" -> clusterReplicas = positive(option, value(list, ++i, option));
                case "--delay" -> clusterDelay = atLeastZero(option, value(list, ++i, option));
                case "--delay-ms" -> delayMs = atLeastZero(option, value(list, ++i, option));
                case "--users" -> users = positive(option, value(list, ++i, option));
                case "--iterations" -> iterations = positive(option, value(list, ++i, option));
                case "--think-ms" -> thinkMs = (long) atLeastZero(option, value(list, ++i, option));
                default -> throw new IllegalArgumentException("unknown option '" + option + "' (see --help)");
            }
        }
        if (clusterDelay != null && !cluster) {
            throw new IllegalArgumentException("--delay applies to --cluster; the embedded delay is --delay-ms");
        }
        return new DemoOptions(cluster, kind, clusterPort != null ? clusterPort : kind.defaultPort, clusterReplicas,
                clusterDelay, Duration.ofMillis(delayMs), users,
                iterations != null ? iterations : cluster ? 10 : 20,
                thinkMs == null ? null : Duration.ofMillis(thinkMs), help);
    }

    private static String value(List<String> args, int index, String option) {
        if (index >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(index);
    }

    private static int positive(String option, String value) {
        int n = atLeastZero(option, value);
        if (n == 0) {
            throw new IllegalArgumentException(option + " must be at least 1, not " + value);
        }
        return n;
    }

    private static int atLeastZero(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 0) {
                return n;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " takes a whole number >= 0, not '" + value + "'");
    }

    Backend backend() {
        return cluster ? new ClusterBackend(clusterKind, clusterPort, clusterReplicas, clusterDelaySeconds)
                : new EmbeddedBackend(embeddedDelay);
    }
}
