package io.rwsplit.cdi;

import static io.rwsplit.internal.config.Setting.bool;
import static io.rwsplit.internal.config.Setting.duration;
import static io.rwsplit.internal.config.Setting.integer;
import static io.rwsplit.internal.config.Setting.text;

import java.util.List;

import io.rwsplit.internal.config.Setting;
import io.rwsplit.internal.config.Setting.Kind;

/**
 * Every {@code rwsplit.cdi.*} key of {@link RwSplitDataSources}: rows of the core's kind, parsed by the core's one
 * reader, so a bad value is refused with the same words as a {@code hibernate.rwsplit.*} one. The only place a key
 * of this module or its default is written; {@code docs/cdi.md} is tested against {@link #ALL}.
 */
final class CdiSettings {

    private CdiSettings() {
    }

    static final String PREFIX = "rwsplit.cdi.";
    static final String PRIMARY = PREFIX + "primary.";
    static final String REPLICA = PREFIX + "replica.";
    private static final String R = REPLICA + "NAME.";

    static final Setting PRIMARY_URL = text(PRIMARY + "url", "(required)", Kind.TEXT, "JDBC URL of the primary.");
    static final Setting PRIMARY_USER = text(PRIMARY + "user", null, "Credentials of the primary.");
    static final Setting PRIMARY_PASSWORD = text(PRIMARY + "password", null, "Credentials of the primary.");
    static final Setting PRIMARY_MAX_SIZE = integer(PRIMARY + "max_size", 10, 1, "Pool size.");
    static final Setting PRIMARY_INITIAL_SQL = text(PRIMARY + "initial_sql", null,
            "SQL each new connection runs (Agroal `initialSql`), e.g. `SET time_zone = '+00:00'`.");
    static final Setting REPLICAS = text(PREFIX + "replicas", "(required)", Kind.LIST,
            "Replica names separated by whitespace.");
    static final Setting REPLICA_URL = text(R + "url", "(required)", Kind.TEXT, "JDBC URL of replica `NAME`.");
    static final Setting REPLICA_USER = text(R + "user", "the primary's", Kind.TEXT, "Credentials.");
    static final Setting REPLICA_PASSWORD = text(R + "password", "the primary's", Kind.TEXT, "Credentials.");
    static final Setting REPLICA_MAX_SIZE = integer(R + "max_size", 10, 1, "Pool size.");
    static final Setting REPLICA_INITIAL_SQL = text(R + "initial_sql", "the primary's", Kind.TEXT,
            "SQL each new connection runs, so that replica sessions start like the primary's.");
    static final Setting ACQUISITION_TIMEOUT = duration(PREFIX + "acquisition_timeout", "PT5S", false,
            "Agroal acquisition timeout, every pool.");
    static final Setting LEAK_TIMEOUT = duration(PREFIX + "leak_timeout", "0", false,
            "Agroal leak detection, every pool.");
    static final Setting METRICS = bool(PREFIX + "metrics", false,
            "Agroal metrics (`AgroalDataSource#getMetrics()`), every pool.");

    static final List<Setting> ALL = List.of(PRIMARY_URL, PRIMARY_USER, PRIMARY_PASSWORD, PRIMARY_MAX_SIZE,
            PRIMARY_INITIAL_SQL, REPLICAS, REPLICA_URL, REPLICA_USER, REPLICA_PASSWORD, REPLICA_MAX_SIZE,
            REPLICA_INITIAL_SQL, ACQUISITION_TIMEOUT, LEAK_TIMEOUT, METRICS);

    /** The options of one pool: what follows {@code rwsplit.cdi.primary.} or {@code rwsplit.cdi.replica.NAME.}. */
    static final List<String> POOL_OPTIONS = ALL.stream().filter(s -> s.key().startsWith(R))
            .map(s -> s.key().substring(R.length())).toList();

    /** The keys that are not a pool's. */
    static final List<String> GLOBAL_KEYS = ALL.stream()
            .filter(s -> !s.key().startsWith(PRIMARY) && !s.key().startsWith(REPLICA)).map(Setting::key).toList();
}
