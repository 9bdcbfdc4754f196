package io.rwsplit.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The real thing: the GTID-replicated MariaDB cluster of {@code scripts/cluster.sh} or the streaming-replicated
 * PostgreSQL cluster of {@code scripts/pg-cluster.sh} (primary on the base port, replica N on base port + N,
 * database, user and password {@code rwsplit}). Replication delay is real; {@code --delay S} sets
 * {@code MASTER_DELAY} (MariaDB) or {@code recovery_min_apply_delay} (PostgreSQL) on every replica through
 * the script.
 */
final class ClusterBackend implements Backend {

    private static final String DATABASE = "rwsplit";
    private static final String USER = "rwsplit";
    private static final String PASSWORD = "rwsplit";

    private final ClusterKind kind;
    private final int basePort;
    private final Database primary;
    private final List<Database> replicas = new ArrayList<>();
    private final Integer delaySeconds;

    /**
     * @param delaySeconds {@code MASTER_DELAY} to set on every replica before the run, or {@code null} to
     *                     leave the cluster as it is
     */
    ClusterBackend(ClusterKind kind, int basePort, int replicaCount, Integer delaySeconds) {
        this.kind = kind;
        this.basePort = basePort;
        this.primary = database("primary", basePort);
        for (int i = 1; i <= replicaCount; i++) {
            replicas.add(database("replica" + i, basePort + i));
        }
        this.delaySeconds = delaySeconds;
    }

    private Database database(String name, int port) {
        return new Database(name, kind.urlPrefix + "127.0.0.1:" + port + "/" + DATABASE, USER, PASSWORD);
    }

    @Override
    public String description() {
        return "cluster: " + kind.product + " primary 127.0.0.1:" + basePort + " + " + replicas.size()
                + " replicas (ports " + (basePort + 1) + "-" + (basePort + replicas.size()) + "), " + kind.replication
                + (delaySeconds == null ? "" : ", " + kind.delaySetting + "=" + delaySeconds + " s set by the demo")
                + "; lag limit off (max_lag=0) so that lagging replicas keep serving reads";
    }

    @Override
    public Map<String, Object> unitOverrides() {
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put("jakarta.persistence.jdbc.url", primary.url());
        overrides.put("jakarta.persistence.jdbc.user", USER);
        overrides.put("jakarta.persistence.jdbc.password", PASSWORD);
        StringJoiner urls = new StringJoiner(" ");
        replicas.forEach(r -> urls.add(r.name() + "=" + r.url()));
        overrides.put("hibernate.rwsplit.replicas", urls.toString());
        // The health monitor would take replicas lagging by --delay out of rotation (max_lag defaults to
        // 1 s), which hides the stale reads this demo is about: keep them serving reads.
        overrides.put("hibernate.rwsplit.max_lag", "0");
        return overrides;
    }

    @Override
    public Database primary() {
        return primary;
    }

    @Override
    public List<Database> replicas() {
        return replicas;
    }

    /** On the primary only: replication brings the schema to the replicas. */
    @Override
    public void createSchema() {
        if (delaySeconds != null) {
            for (int i = 1; i <= replicas.size(); i++) {
                clusterScript("delay", String.valueOf(i), String.valueOf(delaySeconds));
            }
        }
        primary.runScript("schema.sql");
    }

    private void clusterScript(String... args) {
        Path script = Path.of(kind.script);
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("--delay needs " + kind.script + ": run the demo from the repository root, "
                    + "or set the delay yourself with " + kind.script + " delay <replica> <seconds>");
        }
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        pb.environment().put(kind.portVariable, String.valueOf(basePort));
        try {
            int exit = pb.start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException(kind.script + " " + String.join(" ", args) + " exited with " + exit);
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot run " + kind.script + ": " + e.getMessage(), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + kind.script, e);
        }
    }

    @Override
    public void close() {
        // the cluster belongs to its script; its delay stays as set (the script's reset undoes it)
    }
}
