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
    /** hibernate-rwsplit with no consistency keys: the core's defaults (read_your_writes, mode auto). */
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

    Mode(Variant variant, Map<String, String> settings) {
        this.variant = variant;
        this.settings = settings;
    }

    /** The settings as one line for the results table. */
    String describe() {
        if (variant == Variant.PLAIN) {
            return "plain Hibernate, no replicas";
        }
        if (settings.isEmpty()) {
            return "hibernate.rwsplit.replicas only";
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
