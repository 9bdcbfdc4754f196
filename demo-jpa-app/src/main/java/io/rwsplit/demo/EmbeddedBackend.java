package io.rwsplit.demo;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.rwsplit.demo.embedded.ReplicationSimulator;

/**
 * The default: one in-memory H2 primary and H2 replicas in this JVM, with the URLs of
 * {@code persistence.xml}, kept in step by the demo's {@link ReplicationSimulator}.
 */
final class EmbeddedBackend implements Backend {

    static final List<String> TABLES = List.of("app_user", "profile", "purchase_order", "demo_heartbeat");

    private final Database primary = h2("primary", "demo_primary");
    private final List<Database> replicas = List.of(h2("replica1", "demo_replica1"), h2("replica2", "demo_replica2"));
    private final Duration delay;
    private ReplicationSimulator simulator;

    EmbeddedBackend(Duration delay) {
        this.delay = delay;
    }

    private static Database h2(String name, String database) {
        return new Database(name, "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1", "sa", "");
    }

    @Override
    public String description() {
        return "embedded: H2 primary + " + replicas.size() + " H2 replicas in memory, replication SIMULATED by the demo "
                + "(replicas show the primary as it was " + delay.toMillis() + " ms ago)";
    }

    @Override
    public Map<String, Object> unitOverrides() {
        return Map.of(); // persistence.xml names these very databases
    }

    @Override
    public Database primary() {
        return primary;
    }

    @Override
    public List<Database> replicas() {
        return replicas;
    }

    @Override
    public void createSchema() {
        close(); // a simulator of an earlier run in this JVM must not copy into the new tables
        primary.runScript("schema.sql");
        List<Supplier<Connection>> replicaConnections = new ArrayList<>();
        for (Database replica : replicas) {
            replica.runScript("schema.sql");
            replicaConnections.add(connector(replica));
        }
        simulator = new ReplicationSimulator(connector(primary), replicaConnections, TABLES, delay).start();
    }

    private static Supplier<Connection> connector(Database database) {
        return () -> {
            try {
                return database.connect();
            }
            catch (SQLException e) {
                throw new IllegalStateException(database.name() + ": " + e.getMessage(), e);
            }
        };
    }

    @Override
    public void close() {
        if (simulator != null) {
            simulator.close();
            simulator = null;
        }
    }
}
