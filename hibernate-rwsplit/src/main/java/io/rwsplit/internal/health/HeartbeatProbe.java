package io.rwsplit.internal.health;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import io.rwsplit.spi.Clock;
import io.rwsplit.spi.LagProbe;
import io.rwsplit.spi.LagSample;

/**
 * pt-heartbeat style: the monitor writes this process's row of the heartbeat table on the primary every
 * probe interval with a microsecond timestamp ({@link #beat}); a replica's lag is the time since the
 * oldest heartbeat it has not applied yet (see {@link Timeline}). Each process writes its own row, so
 * several applications can share a table. Sub-second resolution: one probe interval. A replica without
 * the table misses every beat written so far (it is looked up in the driver's metadata until it has arrived, so
 * that no failed query makes the driver log; SQLState 42S02 or PostgreSQL's 42P01 count the same); while no beat could be
 * written (no privilege, primary down) lag is 0 and only reachability is checked, with one WARN from the
 * monitor. The row is written with {@code REPLACE} (MariaDB, MySQL) or {@code INSERT ... ON CONFLICT}
 * (PostgreSQL).
 */
final class HeartbeatProbe implements LagProbe, PrimaryTask {

    private final String table;
    private final String id = UUID.randomUUID().toString();
    private final Clock clock;
    private final Timeline<Long> written;
    /** The replicas the table has reached: until then it is looked up, not read (a failed read makes drivers log). */
    private final java.util.Set<String> tableSeen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private boolean created;
    private String upsert;

    /** @param interval how often {@link #run} writes a beat */
    HeartbeatProbe(String table, Clock clock, java.time.Duration interval) {
        this.table = table;
        this.clock = clock;
        this.written = Timeline.every(interval);
    }

    @Override
    public LagSample measure(String replica, Connection connection) throws SQLException {
        long seen = Long.MIN_VALUE;
        if (!tableSeen.contains(replica)) {
            if (!tableExists(connection)) {
                return LagSample.of(written.lagMicros(ts -> false, clock.epochMicros()));
            }
            tableSeen.add(replica);
        }
        try (PreparedStatement ps = connection.prepareStatement("select ts from " + table + " where id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    seen = rs.getLong(1);
                }
            }
        }
        catch (SQLException e) {
            // the table itself has not reached the replica yet: it misses every beat written so far
            if (!"42S02".equals(e.getSQLState()) && !"42P01".equals(e.getSQLState())) {
                throw e;
            }
        }
        long applied = seen;
        return LagSample.of(written.lagMicros(ts -> ts <= applied, clock.epochMicros()));
    }

    /** Whether the heartbeat table has reached the server behind {@code c} (asked of the driver's metadata). */
    private boolean tableExists(Connection c) throws SQLException {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String name = dot < 0 ? table : table.substring(dot + 1);
        java.sql.DatabaseMetaData meta = c.getMetaData();
        // PostgreSQL names schemas as schemas; MariaDB and MySQL name databases as catalogs
        boolean schemas = meta.supportsSchemasInTableDefinitions();
        String catalog = schemas ? null : schema != null ? schema : c.getCatalog();
        for (String candidate : new String[] {name, name.toLowerCase(java.util.Locale.ROOT), name.toUpperCase(java.util.Locale.ROOT)}) {
            try (ResultSet rs = meta.getTables(catalog, schemas ? schema : null, candidate, null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Writes the next heartbeat on the primary (creating the table the first time). */
    @Override
    public void run(Connection primary) throws SQLException {
        if (!created) {
            try (Statement s = primary.createStatement()) {
                s.execute("create table if not exists " + table + " (id varchar(64) primary key, ts bigint not null)");
            }
            commit(primary);
            created = true;
            upsert = primary.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("postgresql")
                    ? "insert into " + table + " (id, ts) values (?, ?) on conflict (id) do update set ts = excluded.ts"
                    : "replace into " + table + " (id, ts) values (?, ?)";
        }
        long ts = clock.epochMicros();
        try (PreparedStatement ps = primary.prepareStatement(upsert)) {
            ps.setString(1, id);
            ps.setLong(2, ts);
            ps.executeUpdate();
        }
        commit(primary);
        written.add(ts, ts);
    }

    /** Removes this process's row. */
    @Override
    public void close(Connection primary) throws SQLException {
        if (created) {
            try (PreparedStatement ps = primary.prepareStatement("delete from " + table + " where id = ?")) {
                ps.setString(1, id);
                ps.executeUpdate();
            }
            commit(primary);
        }
    }

    static void commit(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    @Override
    public String toString() {
        return "heartbeat(" + table + ")";
    }
}
