package io.rwsplit.demo;

import java.util.List;
import java.util.Map;

/**
 * Where the demo runs: the embedded default (H2 plus a replication simulator) or the real MariaDB
 * cluster of {@code scripts/cluster.sh}.
 */
interface Backend extends AutoCloseable {

    /** One line for the report. */
    String description();

    /** Properties that override the persistence unit's (empty: persistence.xml as it is). */
    Map<String, Object> unitOverrides();

    Database primary();

    List<Database> replicas();

    /** Creates the demo schema where it must be created by hand (everywhere but replicated servers). */
    void createSchema();

    @Override
    void close();
}
