package io.rwsplit.quarkus;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigDocSection;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;
import io.smallrye.config.WithUnnamedKey;

/**
 * Read replicas per Hibernate ORM persistence unit, as {@code quarkus.hibernate-orm.*} is configured:
 * {@code quarkus.rwsplit.replicas} for the default unit, {@code quarkus.rwsplit."orders".replicas} for the unit
 * {@code orders}. Replicas (as URLs or as named datasources) switch routing on for their unit; every other key is
 * optional and, when absent, keeps the default of the core's {@code hibernate.rwsplit.*} setting of the same name
 * (see docs/configuration.md), which also validates each value. {@code quarkus.rwsplit.web.*} is global
 * ({@link RwSplitWebConfig}).
 */
@ConfigMapping(prefix = "quarkus.rwsplit")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface RwSplitRuntimeConfig {

    /** The settings of each persistence unit, by its name; the default unit's have no name in the key. */
    @ConfigDocMapKey("persistence-unit-name")
    @ConfigDocSection
    @WithParentName
    @WithUnnamedKey(PersistenceUnitUtil.DEFAULT_PERSISTENCE_UNIT_NAME)
    Map<String, PersistenceUnit> persistenceUnits();

    /** The replicas and routing settings of one persistence unit. */
    interface PersistenceUnit {

        /**
         * The replicas of the unit's datasource as JDBC URLs: a comma-separated list, or {@code replicas[0]},
         * {@code [1]}, ... for a URL that holds a comma (such as {@code jdbc:mysql://h1,h2/db}). Named
         * {@code replica1}, {@code replica2}, ... by position; each gets an Agroal pool configured like the unit's
         * datasource (driver, credentials, pool sizes and timeouts), outside JTA transactions; the core makes each of its
         * connections read-only while it lends it.
         */
        Optional<List<String>> replicas();

        /**
         * The replicas as named Quarkus datasources ({@code quarkus.datasource."name".*}), comma-separated; each
         * replica is named by its datasource and served by that datasource's own Agroal pool, which must not take
         * part in JTA transactions ({@code quarkus.datasource."name".jdbc.transactions=disabled}).
         */
        Optional<List<String>> replicaDatasources();

        /**
         * How a replica is chosen among the healthy ones of the best tier ({@code hibernate.rwsplit.load_balancer}):
         * {@code thread_affinity} (the core's default: each thread keeps to one replica), {@code round_robin} (each
         * read on the next replica), {@code weighted}, {@code least_lag}, {@code least_in_flight} or {@code random}.
         */
        Optional<String> loadBalancer();

        /**
         * The default consistency level of every session: {@code read_your_writes} (the core's default),
         * {@code strong}, {@code eventual}, or {@code bounded_staleness:<duration>} (e.g.
         * {@code bounded_staleness:500ms}).
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
         * What a read does that must see a write a failover of the primary lost: {@code fail} (the core's default:
         * it throws {@code io.rwsplit.LostWriteException}) or {@code log} (it reads the new primary's data, logged
         * at WARN).
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

        /**
         * How replica lag is measured ({@code hibernate.rwsplit.lag_probe}: {@code heartbeat}, {@code gtid},
         * {@code replica_status}, {@code lsn}, {@code replay_timestamp}, {@code reachability}). Default: by the unit
         * datasource's {@code db-kind}, as the core's {@code auto} chooses by URL: {@code heartbeat} on MariaDB and
         * MySQL, {@code lsn} on PostgreSQL, else {@code reachability} (which measures no lag).
         */
        Optional<String> lagProbe();

        /** How many query shapes the statistics report (the core's default: 50). */
        OptionalInt queryShapes();

        /**
         * The query-shape statistics time each shape's first 8 executions, then one in N at random; 1 = every one (the
         * core's default: 16).
         */
        OptionalInt timeSample();

        /** The stale-read audit checks one replica read in N; 1 = every one, 0 = off (the core's default: 100). */
        OptionalInt auditSample();
    }

    /** Values of {@link PersistenceUnit#readYourWrites()}. */
    enum ReadYourWritesMode {
        AUTO, GTID, TIME
    }

    /** Values of {@link PersistenceUnit#lostWrites()}. */
    enum LostWrites {
        FAIL, LOG
    }
}
