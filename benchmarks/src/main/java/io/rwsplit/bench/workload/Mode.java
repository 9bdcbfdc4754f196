package io.rwsplit.bench.workload;

import java.util.Map;

import io.rwsplit.bench.Variant;

/**
 * A consistency setup of the workload: the variant and the settings string(s) passed through to the
 * persistence unit unchanged, so that the runner needs no knowledge of how the core implements them. The
 * routing peers have no read-your-writes: they run the workload as their users would, reads in Spring
 * read-only transactions.
 */
enum Mode {
    /** Reference: plain Hibernate, every statement on the primary. */
    PRIMARY_ONLY(Variant.PLAIN, Map.of()),
    /**
     * hibernate-rwsplit with no consistency keys and no scope named: the core's defaults (read_your_writes of
     * the whole persistence unit, mode auto), as an application that only sets the replicas property.
     */
    UNIT_DEFAULT(Variant.RWSPLIT, Map.of(), false),
    /** hibernate-rwsplit with no consistency keys, each user's sessions in a named scope ({@code RwSplit.scope}). */
    RWSPLIT_DEFAULT(Variant.RWSPLIT, Map.of()),
    EVENTUAL(Variant.RWSPLIT, Map.of("hibernate.rwsplit.consistency", "eventual")),
    /** hibernate-rwsplit's defaults but each read on the next replica in turn (no scope named, as {@link #UNIT_DEFAULT}). */
    ROUND_ROBIN(Variant.RWSPLIT, Map.of("hibernate.rwsplit.load_balancer", "round_robin"), false),
    READ_YOUR_WRITES_TIME(Variant.RWSPLIT, Map.of(
            "hibernate.rwsplit.consistency", "read_your_writes",
            "hibernate.rwsplit.read_your_writes", "time")),
    READ_YOUR_WRITES_GTID(Variant.RWSPLIT, Map.of(
            "hibernate.rwsplit.consistency", "read_your_writes",
            "hibernate.rwsplit.read_your_writes", "gtid")),
    /**
     * hibernate-rwsplit with the core's defaults and no scope named (as {@link #UNIT_DEFAULT}), every operation in
     * a Spring transaction (reads read-only), as the peers run.
     */
    RWSPLIT_SPRING_TX(Variant.RWSPLIT_TX, Map.of(), false),
    /** (c) Spring's LazyConnectionDataSourceProxy, read-only data source = replica1. */
    SPRING_LAZY(Variant.SPRING_LAZY, Map.of()),
    /** (e) mysql-connector-j's replication URL over the primary and both replicas. */
    MYSQL_REPLICATION(Variant.MYSQL_REPLICATION, Map.of()),
    /** (f) the AWS Advanced JDBC Wrapper's srw plugin, reader endpoint = replica1. */
    AWS_SRW(Variant.AWS_SRW, Map.of());

    final Variant variant;
    final Map<String, String> settings;
    /** Whether each user's sessions name the user's scope (hibernate-rwsplit modes only). */
    final boolean namesScope;

    Mode(Variant variant, Map<String, String> settings) {
        this(variant, settings, true);
    }

    Mode(Variant variant, Map<String, String> settings, boolean namesScope) {
        this.variant = variant;
        this.settings = settings;
        this.namesScope = namesScope;
    }

    /** The settings as one line for the results table. */
    String describe() {
        switch (variant) {
            case PLAIN:
                return "plain Hibernate, no replicas";
            case SPRING_LAZY:
                return "Spring read-only transactions; LazyConnectionDataSourceProxy, read-only data source replica1";
            case MYSQL_REPLICATION:
                return "Spring read-only transactions; jdbc:mysql:replication://primary,replica1,replica2";
            case AWS_SRW:
                return "Spring read-only transactions; aws-wrapper srw, reader endpoint replica1";
            default:
                break;
        }
        String transactions = variant.readOnlyTransactions() ? "Spring read-only transactions; " : "";
        if (settings.isEmpty()) {
            return transactions + "hibernate.rwsplit.replicas only" + (namesScope ? ", RwSplit.scope per user" : ", no scope named");
        }
        StringBuilder text = new StringBuilder(transactions);
        settings.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (text.length() > transactions.length()) {
                text.append(", ");
            }
            text.append(e.getKey().substring("hibernate.rwsplit.".length())).append('=').append(e.getValue());
        });
        return text.toString();
    }
}
