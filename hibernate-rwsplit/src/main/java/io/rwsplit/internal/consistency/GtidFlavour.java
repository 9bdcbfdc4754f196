package io.rwsplit.internal.consistency;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.function.Consumer;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.position.LsnPosition;
import io.rwsplit.position.MariaDbGtidPosition;
import io.rwsplit.position.MySqlGtidSet;
import io.rwsplit.spi.Clock;

/**
 * The GTID dialect of a server: how to read the position of the transaction just committed on a
 * connection, and how to make a replica wait for a position.
 */
enum GtidFlavour {

    /** {@code @@last_gtid} (this connection's last transaction) and {@code MASTER_GTID_WAIT}; with {@code @@read_only}. */
    MARIADB("select @@last_gtid" + GtidFlavour.READ_ONLY, "select @@global.gtid_binlog_pos" + GtidFlavour.READ_ONLY,
            "select master_gtid_wait(?, ?)") {
        @Override
        GtidPosition parse(String text) {
            return MariaDbGtidPosition.parse(text);
        }

        @Override
        boolean accepts(GtidPosition position) {
            return position instanceof MariaDbGtidPosition;
        }
    },
    /** {@code @@gtid_executed} (contains this connection's commits) and {@code WAIT_FOR_EXECUTED_GTID_SET}. */
    MYSQL("select @@global.gtid_executed" + GtidFlavour.READ_ONLY, "select @@global.gtid_executed" + GtidFlavour.READ_ONLY,
            "select wait_for_executed_gtid_set(?, ?)") {
        @Override
        GtidPosition parse(String text) {
            return MySqlGtidSet.parse(text);
        }

        @Override
        boolean accepts(GtidPosition position) {
            return position instanceof MySqlGtidSet;
        }
    },
    /**
     * WAL positions: after the commit, the WAL flush position of a synchronous commit, else the insert position (see
     * {@link LsnWait} for why each is at or after the commit record), and a standby's {@code pg_last_wal_replay_lsn()},
     * waited for by {@link LsnWait}.
     */
    POSTGRESQL("select pg_current_wal_insert_lsn()", "select pg_current_wal_insert_lsn()", null) {
        @Override
        GtidPosition parse(String text) {
            return LsnPosition.parse(text);
        }

        @Override
        GtidPosition capture(Connection primary) throws SQLException {
            return commitPosition(primary);
        }

        /**
         * Without its timeline: read on another connection than the commit's, the position tells nothing of which
         * server wrote the commit (that connection may lead to a server promoted since).
         */
        @Override
        GtidPosition captureGlobal(Connection primary) throws SQLException {
            GtidPosition p = commitPosition(primary);
            return p instanceof LsnPosition l ? LsnPosition.of(l.lsn()) : p;
        }

        /**
         * In manual-commit mode the query would begin a transaction (pgjdbc sends {@code BEGIN} with it) that the
         * application's next {@code setAutoCommit(true)} or {@code commit()} ends with one more round trip, an
         * empty transaction on the primary for every write. Right after a commit none is open, and pgjdbc switches
         * autocommit on and off again without a word to the server then: the position costs one round trip.
         */
        @Override
        GtidPosition captureAfterCommit(Connection primary) throws SQLException {
            if (primary.getAutoCommit()) {
                return commitPosition(primary);
            }
            primary.setAutoCommit(true);
            try {
                return commitPosition(primary);
            }
            finally {
                primary.setAutoCommit(false);
            }
        }

        @Override
        boolean commitsWithPosition() {
            return true;
        }

        /**
         * {@code select current_setting('synchronous_commit'); commit; <positions>} in one round trip (pgjdbc sends the
         * three statements with one Sync). The first statement is the guard: in a transaction that an error aborted it
         * fails with 25P02 and the server skips the rest, so such a transaction is handed to the driver's own
         * {@code commit()}, which answers as the application expects of it (pgjdbc rolls back, silently or with an
         * exception where configured so); a SQL {@code COMMIT} would answer {@code ROLLBACK} without an error. Any other
         * error is the commit's (a deferred constraint, a serialization failure, a lost connection): the server skipped
         * the rest, nothing was read. Only an error of the position query itself, after the commit part (a cancel or an
         * out-of-memory in that instant), would be reported as the commit's; a lost connection leaves any commit's
         * outcome open.
         *
         * <p>The guard also reads {@code synchronous_commit} as the commit will apply it (inside the transaction, so a
         * {@code SET LOCAL} counts): a synchronous commit returns once its WAL is flushed, so the WAL flush position read
         * after it is at or past its commit record, and it is the tighter position (see {@link #commitPosition(ResultSet, boolean)}).
         *
         * <p>Sent as a prepared statement: pgjdbc keeps its three parsed statements per physical connection and, from the
         * fifth execution there (its default {@code prepareThreshold}), runs them as named server-side statements, so
         * the primary neither parses nor plans them at every commit (measured on the test cluster, one connection
         * writing: 30 to 200 us less per transaction that wrote, of 280 to 600 us).
         */
        @Override
        GtidPosition commitCapturing(Connection primary, Consumer<? super Exception> unreadable) throws SQLException {
            PreparedStatement s = primary.prepareStatement(POSTGRESQL_COMMIT_AND_CAPTURE);
            try {
                s.execute();
            }
            catch (SQLException e) {
                closeQuietly(s, e);
                if (!TRANSACTION_ABORTED.equals(e.getSQLState())) {
                    throw e;
                }
                primary.commit();
                return LsnPosition.EMPTY;   // rolled back (if the driver did not throw): nothing to read
            }
            try {
                // no transaction is open now: pgjdbc sends nothing, and a pool learns that the transaction ended
                primary.commit();
                boolean synchronous;
                try (ResultSet guard = s.getResultSet()) {
                    synchronous = guard != null && guard.next() && !"off".equals(guard.getString(1));
                }
                s.getMoreResults();   // past the guard's row to the commit's count
                if (!s.getMoreResults()) {
                    throw new SQLException("the position query after the commit gave no rows");
                }
                try (ResultSet rs = s.getResultSet()) {
                    return commitPosition(rs, synchronous);
                }
            }
            catch (SQLException | RuntimeException e) {
                unreadable.accept(e);
                return null;
            }
            finally {
                closeQuietly(s, null);
            }
        }

        @Override
        WaitResult await(Connection replica, GtidPosition position, long timeoutMicros, Clock clock, SharedReplayPoll shared,
                         boolean justAsked) throws SQLException {
            return LsnWait.await(replica, (LsnPosition) position, timeoutMicros, clock, shared, justAsked);
        }

        @Override
        boolean accepts(GtidPosition position) {
            return position instanceof LsnPosition;
        }
    },
    /** No positions (H2, ...): read-your-writes falls back to the time window. */
    NONE(null, null, null) {
        @Override
        GtidPosition parse(String text) {
            return null;
        }

        @Override
        boolean accepts(GtidPosition position) {
            return false;
        }
    };

    /**
     * The positions after the transaction a PostgreSQL connection just committed, read after the commit returned: the
     * WAL insert position (at or after the end of the commit record however the transaction committed, see
     * {@link LsnWait}) and the WAL flush position (at or after it only when the commit was synchronous); see
     * {@link #commitPosition(ResultSet, boolean)} for which one a read waits for; and the timeline written on.
     */
    private static final String POSTGRESQL_CAPTURE =
            "select pg_current_wal_insert_lsn(), current_setting('wal_block_size'), pg_current_wal_flush_lsn(), "
            + io.rwsplit.internal.health.GtidReader.timelineOf("pg_current_wal_insert_lsn()");

    /** The commit of a transaction and its position in one round trip: see {@code POSTGRESQL.commitCapturing}. */
    private static final String POSTGRESQL_COMMIT_AND_CAPTURE =
            "select current_setting('synchronous_commit'); commit; " + POSTGRESQL_CAPTURE;

    /**
     * Read with a MariaDB or MySQL position, in the same round trip: whether the server that answers is read-only. A
     * connection to a multi-host primary URL may have been re-opened by the driver on the next host, a replica
     * (MariaDB Connector/J runs a query outside a transaction again there without a word): its position is not the
     * commit's (empty on MariaDB, older on MySQL).
     */
    private static final String READ_ONLY = ", @@read_only";

    /** SQLState of a statement in a transaction an earlier error aborted (PostgreSQL). */
    private static final String TRANSACTION_ABORTED = "25P02";

    private final String captureSql;
    private final String globalCaptureSql;
    private final String waitSql;
    /** Whether the position queries read {@link #READ_ONLY} as their second column. */
    private final boolean readsReadOnly;

    GtidFlavour(String captureSql, String globalCaptureSql, String waitSql) {
        this.captureSql = captureSql;
        this.globalCaptureSql = globalCaptureSql;
        this.waitSql = waitSql;
        this.readsReadOnly = captureSql != null && captureSql.endsWith(GtidFlavour.READ_ONLY);
    }

    abstract GtidPosition parse(String text);

    /** Whether a server of this flavour can wait for {@code position}. */
    abstract boolean accepts(GtidPosition position);

    /** The flavour of the server behind {@code c}, from metadata the driver already holds. */
    static GtidFlavour of(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        String product = String.valueOf(md.getDatabaseProductName()).toLowerCase(Locale.ROOT);
        String version = String.valueOf(md.getDatabaseProductVersion()).toLowerCase(Locale.ROOT);
        if (product.contains("mariadb") || version.contains("mariadb")) {
            return MARIADB;
        }
        if (product.contains("mysql")) {
            return MYSQL;
        }
        if (product.contains("postgresql")) {
            return POSTGRESQL;
        }
        return NONE;
    }

    /**
     * The position after the transaction this connection just committed, or {@code null} when the server has
     * none (binary log or GTIDs off).
     */
    GtidPosition capture(Connection primary) throws SQLException {
        return read(primary, captureSql);
    }

    /**
     * As {@link #capture}, on a connection that has just been told to commit its transaction (none is open on it).
     */
    GtidPosition captureAfterCommit(Connection primary) throws SQLException {
        return capture(primary);
    }

    /** Whether {@link #commitCapturing} can commit a transaction and read its position in one round trip. */
    boolean commitsWithPosition() {
        return false;
    }

    /**
     * Commits the transaction open on {@code primary} (manual-commit mode, it wrote) and reads its position in the same
     * round trip, where {@link #commitsWithPosition()}. Throws what the commit threw; once the commit is done, a position
     * that cannot be read goes to {@code unreadable} and the answer is {@code null}, as it is when the server has none.
     * An empty position: nothing was committed (the transaction had been aborted and rolled back).
     */
    GtidPosition commitCapturing(Connection primary, Consumer<? super Exception> unreadable) throws SQLException {
        throw new UnsupportedOperationException(name() + " reads a commit's position after the commit");
    }

    /**
     * The server's position read on another connection after the commit: it contains the commit (and
     * perhaps later ones, which only makes readers wait a little longer, never read stale data). Used when
     * the committing connection is already gone, as under JTA, where the pool takes it back at completion.
     */
    GtidPosition captureGlobal(Connection primary) throws SQLException {
        return read(primary, globalCaptureSql);
    }

    private GtidPosition read(Connection primary, String sql) throws SQLException {
        try (Statement s = primary.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                return null;
            }
            String text = rs.getString(1);
            String readOnly = readsReadOnly ? rs.getString(2) : null;
            if ("1".equals(readOnly) || "ON".equalsIgnoreCase(readOnly)) {
                // the type JDBC gives an operation that failed on its connection: this one now leads to another server
                throw new java.sql.SQLTransientConnectionException("the server that answers the position query is"
                        + " read-only (@@read_only = " + readOnly + "): not the primary that ran the commit, but a host"
                        + " of the primary URL the driver re-opened the connection on, which may lack the commit");
            }
            if (text == null || text.isBlank()) {
                return null;
            }
            GtidPosition position = parse(text);
            return position.isEmpty() ? null : position;
        }
    }

    /**
     * The position of the write a PostgreSQL connection just committed outside {@link #commitCapturing} (autocommit
     * statements, a commit made apart): the insert position, since how that commit was made is not known here.
     */
    private static GtidPosition commitPosition(Connection primary) throws SQLException {
        // prepared, as the commit's own capture is: parsed and planned once per connection, not at every write
        try (PreparedStatement s = primary.prepareStatement(POSTGRESQL_CAPTURE); ResultSet rs = s.executeQuery()) {
            return commitPosition(rs, false);
        }
    }

    /**
     * The position in {@link #POSTGRESQL_CAPTURE}'s answer that a standby must replay for a read to see the commit.
     *
     * <p>{@code synchronous}: the commit waited for its WAL to be flushed ({@code synchronous_commit} other than
     * {@code off}, as the guard read it inside the transaction). Then the flush position is at or past the commit
     * record, and it is the one taken: everything up to it has been flushed, so the primary sends it to the standbys at
     * once. The insert position also counts WAL that other sessions have inserted but nobody has flushed yet (the
     * records of transactions still running, under concurrent writers nearly always some): a standby cannot receive
     * that until the next flush (another commit, or the WAL writer up to {@code wal_writer_delay} later), so a read
     * that waited for it waited for other sessions' next commits too, every time. Measured on this project's cluster,
     * 8 users writing and reading back: see docs/postgresql.md.
     *
     * <p>Otherwise (an asynchronous commit, whose record may not be flushed yet) the insert position, made a position
     * a standby can reach ({@link LsnPosition#asReplayPosition}, with the server's {@code wal_block_size}): measured on
     * PostgreSQL 15 here, 2 of 1,500 quiet commits ended exactly at a page boundary, and their insert position, past
     * the next page's header, was reached by no standby before the next write, so every read of them timed out.
     */
    private static GtidPosition commitPosition(ResultSet rs, boolean synchronous) throws SQLException {
        if (!rs.next()) {
            return null;
        }
        String text = synchronous ? rs.getString(3) : rs.getString(1);
        if (text == null || text.isBlank()) {
            return null;
        }
        // on its timeline: a failover that finds the write past what the new primary replicated tells the new
        // primary's own writes from the old primary's lost ones by it
        LsnPosition position = io.rwsplit.internal.health.GtidReader.onTimeline(LsnPosition.parse(text), rs.getString(4));
        if (!synchronous) {
            position = position.asReplayPosition(Integer.parseInt(rs.getString(2).trim()));
        }
        return position.isEmpty() ? null : position;
    }

    private static void closeQuietly(Statement s, SQLException failure) {
        try {
            s.close();
        }
        catch (SQLException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    /**
     * Waits until the replica behind {@code replica} applied {@code position}; {@link WaitResult#NOT_APPLIED} on timeout.
     * {@code shared} is the replica's poll, shared by the reads waiting on it where the server can only be asked
     * (PostgreSQL); {@code justAsked}: a read's own check asked the replica just now (polled servers then skip a first
     * question). A server-side wait cannot tell whether it had to wait: it answers {@code APPLIED_AFTER_WAITING}.
     */
    WaitResult await(Connection replica, GtidPosition position, long timeoutMicros, Clock clock, SharedReplayPoll shared,
                     boolean justAsked) throws SQLException {
        try (PreparedStatement ps = replica.prepareStatement(waitSql)) {
            ps.setString(1, position.toString());
            ps.setBigDecimal(2, java.math.BigDecimal.valueOf(timeoutMicros, 6));
            try (ResultSet rs = ps.executeQuery()) {
                // both functions return 0 once the position is applied (MariaDB -1, MySQL 1 on timeout; NULL on error)
                return rs.next() && rs.getInt(1) == 0 && !rs.wasNull() ? WaitResult.APPLIED_AFTER_WAITING
                        : WaitResult.NOT_APPLIED;
            }
        }
    }
}
