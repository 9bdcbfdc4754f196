package io.rwsplit.bench.workload;

import java.util.Map;

import io.rwsplit.bench.Variant;

/**
 * A consistency setup of the workload: the variant and the settings string(s) passed through to the
 * persistence unit unchanged, so that the runner needs no knowledge of how the core implements them.
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
    READ_YOUR_WRITES_TIME(Variant.RWSPLIT, Map.of(
            "hibernate.rwsplit.consistency", "read_your_writes",
            "hibernate.rwsplit.read_your_writes", "time")),
    READ_YOUR_WRITES_GTID(Variant.RWSPLIT, Map.of(
            "hibernate.rwsplit.consistency", "read_your_writes",
            "hibernate.rwsplit.read_your_writes", "gtid"));

    final Variant variant;
    final Map<String, String> settings;
    /** Whether each user's sessions name the user's scope. */
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
        if (variant == Variant.PLAIN) {
            return "plain Hibernate, no replicas";
        }
        if (settings.isEmpty()) {
            return "hibernate.rwsplit.replicas only" + (namesScope ? ", RwSplit.scope per user" : ", no scope named");
        }
        StringBuilder text = new StringBuilder();
        settings.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(e.getKey().substring("hibernate.rwsplit.".length())).append('=').append(e.getValue());
        });
        return text.toString();
    }
}
