package io.rwsplit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.persistence.EntityManager;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;

/**
 * Proves, before anything is measured, that a variant's reads are served where the variant claims: by a
 * replica for the routing variants, by the primary for the baselines. The reads run exactly as the benchmark
 * runs them ({@link Stack#read}: a Spring read-only transaction or an {@code EntityManager} outside one).
 * <ul>
 *   <li>H2: the primary and the "replica" are two databases whose rows differ in name
 *       ({@link Schema#PRIMARY_ROWS}, {@link Schema#REPLICA_ROWS}); the row {@code em.find} returns shows which
 *       database served it.</li>
 *   <li>MariaDB cluster: each unit of work runs {@code em.find} and then {@code select @@server_id}; the server
 *       id must be a replica's (or the primary's). hibernate-rwsplit routes each statement on its own, so for
 *       it the session's statistics must also show both statements on a replica.</li>
 *   <li>PostgreSQL cluster: the same, with {@code select inet_server_port()} (every server of scripts/pg-cluster.sh
 *       listens on its own port) in place of the server id.</li>
 * </ul>
 * A variant that fails the proof fails its set-up, so no figure is ever reported for a peer that did not
 * route. Each result is printed and, when the system property {@value #PROOFS_PROPERTY} names a file,
 * appended there as {@code part<TAB>variant<TAB>result} for the report.
 */
public final class RoutingProof {

    /** System property: the file the proofs are appended to (scripts/bench.sh sets it). */
    public static final String PROOFS_PROPERTY = "rwsplit.bench.proofs";

    /** Consecutive reads that must all be served as expected. */
    static final int READS = 20;

    /** How long the first read may take to be routed as expected (replica health starts unknown). */
    private static final long START_UP_NANOS = 10_000_000_000L;

    private RoutingProof() {
    }

    /**
     * Checks {@code stack}'s reads on {@code db} and records the result under {@code part} ("h2", "cluster",
     * "workload"); throws {@link IllegalStateException} when a read is served by the wrong side.
     */
    public static String verify(String part, Stack stack, Database db) {
        Variant variant = stack.variant();
        String result = db.mariadb() || db.postgres() ? cluster(stack, db) : h2(stack);
        String line = part + "\t" + variant.name() + "\t" + result;
        System.out.println("routing proof: " + line.replace('\t', ' '));
        String file = System.getProperty(PROOFS_PROPERTY);
        if (file != null) {
            try {
                Files.writeString(Path.of(file), line + "\n", StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot append the routing proof to " + file, e);
            }
        }
        return result;
    }

    private static String h2(Stack stack) {
        Variant variant = stack.variant();
        String expected = variant.routesReads() ? Schema.REPLICA_ROWS : Schema.PRIMARY_ROWS;
        awaitFirst(() -> stack.read(em -> nameOf(em, 1)).startsWith(expected));
        for (int i = 0; i < READS; i++) {
            long id = i % Schema.ROWS + 1;
            String name = stack.read(em -> nameOf(em, id));
            if (!name.equals(expected + id)) {
                throw new IllegalStateException(variant + ": read " + (i + 1) + " of " + READS + " returned row '" + name
                        + "', expected '" + expected + id + "' from the " + (variant.routesReads() ? "replica" : "primary")
                        + " database");
            }
        }
        return String.format("%d/%d reads returned the %s database's rows (`%s…`)", READS, READS,
                variant.routesReads() ? "replica" : "primary", expected);
    }

    private static String nameOf(EntityManager em, long id) {
        BenchItem item = em.find(BenchItem.class, id);
        return item == null ? "(no row " + id + ")" : item.getName();
    }

    private static String cluster(Stack stack, Database db) {
        Variant variant = stack.variant();
        String query = db.postgres() ? "select inet_server_port()" : "select @@server_id";
        String label = db.postgres() ? "port" : "server_id";
        String primary = Replication.query(db.primaryUrl(), db, query);
        Set<String> replicas = new HashSet<>();
        for (String replica : db.replicaUrls()) {
            replicas.add(Replication.query(replica, db, query));
        }
        if (replicas.contains(primary) || replicas.size() != db.replicaUrls().size()) {
            throw new IllegalStateException("the cluster's servers need distinct " + label + " values: primary " + primary
                    + ", replicas " + replicas);
        }
        boolean module = variant == Variant.RWSPLIT || variant == Variant.RWSPLIT_TX;
        awaitFirst(() -> replicas.contains(stack.read(em -> serverId(em, query, 1, false))) == variant.routesReads());
        Map<String, Integer> seen = new TreeMap<>();
        for (int i = 0; i < READS; i++) {
            long id = i % Schema.ROWS + 1;
            String server = stack.read(em -> serverId(em, query, id, module));
            boolean onReplica = replicas.contains(server);
            if (onReplica != variant.routesReads()) {
                throw new IllegalStateException(variant + ": read " + (i + 1) + " of " + READS + " was served by " + label + " "
                        + server + " (primary " + primary + ", replicas " + replicas + "), expected the "
                        + (variant.routesReads() ? "replicas" : "primary"));
            }
            seen.merge(server, 1, Integer::sum);
        }
        StringBuilder servers = new StringBuilder();
        seen.forEach((server, count) -> servers.append(servers.length() == 0 ? "" : ", ").append(server).append(" ×").append(count));
        return String.format("%d/%d reads (`find` + `%s`) on the %s: %s %s (primary %s)%s",
                READS, READS, query, variant.routesReads() ? "replicas" : "primary", label, servers, primary,
                module ? "; session statistics: both statements on a replica" : "");
    }

    /** One unit of work: the benchmark's find, then the server's id ({@code query}); for the module also its statistics. */
    private static String serverId(EntityManager em, String query, long id, boolean checkStatistics) {
        em.find(BenchItem.class, id);
        String server = String.valueOf(em.createNativeQuery(query).getSingleResult());
        if (checkStatistics) {
            RoutingStatistics statistics = RwSplit.statistics(em);
            if (statistics.primaryStatements() != 0 || statistics.replicaStatements() != 2) {
                throw new IllegalStateException("hibernate-rwsplit: expected the find and '" + query + "' on a replica, "
                        + "the session's statistics show " + statistics.primaryStatements() + " on the primary and "
                        + statistics.replicaStatements() + " on replicas " + statistics.byReason());
            }
        }
        return server;
    }

    /** Repeats a read until it is served as expected, for at most {@link #START_UP_NANOS}. */
    private static void awaitFirst(java.util.function.BooleanSupplier routedAsExpected) {
        long deadline = System.nanoTime() + START_UP_NANOS;
        while (!routedAsExpected.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the first routed read", e);
            }
        }
    }
}
