package io.rwsplit.quarkus;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/**
 * Read replicas for the default Hibernate ORM persistence unit. Setting {@code quarkus.rwsplit.replicas} switches
 * routing on; every other key is optional and, when absent, keeps the default of the core's
 * {@code hibernate.rwsplit.*} setting of the same name (see docs/configuration.md), which also validates each value.
 */
@ConfigMapping(prefix = "quarkus.rwsplit")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface RwSplitRuntimeConfig {

    /**
     * The replicas of the default persistence unit's datasource, as JDBC URLs: a comma-separated list, or
     * {@code quarkus.rwsplit.replicas[0]}, {@code [1]}, ... for a URL that holds a comma (such as
     * {@code jdbc:mysql://h1,h2/db}). Named {@code replica1}, {@code replica2}, ... by position; each connects with the
     * default datasource's user name and password. Without this key the extension does nothing.
     */
    Optional<List<String>> replicas();

    /**
     * The default consistency level of every session: {@code read_your_writes} (the core's default), {@code strong},
     * {@code eventual}, or {@code bounded_staleness:<duration>} (e.g. {@code bounded_staleness:500ms}).
     */
    Optional<String> consistency();

    /**
     * How read-your-writes is honoured: {@code auto} (the core's default: {@code gtid} on MariaDB, MySQL and
     * PostgreSQL, else {@code time}), {@code gtid} or {@code time}.
     */
    Optional<ReadYourWritesMode> readYourWrites();

    /** Time mode: how long after a scope's last commit its reads stay on the primary (the core's default: 2s). */
    Optional<Duration> readYourWritesWindow();

    /**
     * What a read does that must see a write a failover of the primary lost: {@code fail} (the core's default: it
     * throws {@code io.rwsplit.LostWriteException}) or {@code log} (it reads the new primary's data, logged at WARN).
     */
    Optional<LostWrites> lostWrites();

    /** Lag above which a replica leaves rotation (the core's default: 1s; {@code 0} means no lag limit). */
    Optional<Duration> maxLag();

    /** Pause between two probes of one replica (the core's default: 250ms). */
    Optional<Duration> probeInterval();

    /** Connect and network timeout of one probe (the core's default: 1s). */
    Optional<Duration> probeTimeout();

    /** Consecutive failed probes that take a replica down (the core's default: 2). */
    OptionalInt failureThreshold();

    /** Values of {@link #readYourWrites()}. */
    enum ReadYourWritesMode {
        AUTO, GTID, TIME
    }

    /** Values of {@link #lostWrites()}. */
    enum LostWrites {
        FAIL, LOG
    }
}
